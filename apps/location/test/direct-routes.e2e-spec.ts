/**
 * The three operations are served by direct routes (libs/http/src/fast-path/direct-routes.ts):
 * the same answers, headers, refusals, rate limit and accounting lines as through Express's
 * router and Nest, which still serve every other spelling of their paths.
 */
import { DEMO_APP } from '@geoaccount/signing';
import { routedByExpress as routedByTheRouter } from '@geoaccount/testing';
import { type LocationSession, sessionOnSharedRedis } from './support/location-session';

type Op = 'lbsQuery' | 'addressQuery' | 'baseStationQuery';

const PARAMS: Record<Op, Record<string, string>> = {
  lbsQuery: { longitude: '116.391275', latitude: '39.907501', productId: 'P1' },
  addressQuery: { city: '北京市', address: '东城区长安街1号' },
  baseStationQuery: { mcc: '460', mnc: '0', lac: '4000', cellid: '10000' },
};

/** A signed request to `path` (an operation's path, spelled as given), by fetch. */
async function get(
  s: LocationSession,
  op: Op,
  path: string,
  edit: (q: URLSearchParams) => void = () => undefined,
  headers: Record<string, string> = {},
) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(PARAMS[op])) query.set(`param.${name}`, value);
  query.set('userToken', DEMO_APP.appToken);
  query.set('signature', await s.direct.sign(op, PARAMS[op]));
  edit(query);
  const res = await fetch(`${s.url}${path}?${query.toString()}`, { headers });
  const seen: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id') seen[name] = value;
  });
  return { status: res.status, headers: seen, body: (await res.json()) as Record<string, unknown> };
}

/** How many requests reached Express's router while `during` ran. */
const routedByExpress = (s: LocationSession, during: () => Promise<unknown>) => routedByTheRouter(s.app, during);

describe('location direct routes', () => {
  const run = sessionOnSharedRedis('direct');

  it.each(['lbsQuery', 'addressQuery', 'baseStationQuery'] as const)(
    '%s: answered without the router, as the router answers its other spelling (computed, then cached)',
    async (op) => {
      const path = `/lbsapi/api/${op}`;
      let direct: Awaited<ReturnType<typeof get>>[] = [];
      expect(await routedByExpress(run.s, async () => (direct = [await get(run.s, op, path), await get(run.s, op, path)]))).toBe(0);
      let routed: Awaited<ReturnType<typeof get>>[] = [];
      expect(
        await routedByExpress(run.s, async () => (routed = [await get(run.s, op, path.toLowerCase()), await get(run.s, op, `${path}/`)])),
      ).toBe(2);
      expect(direct[0]!.status).toBe(200);
      expect(direct[0]!.body).toMatchObject({ code: '000', lbsStat: expect.stringMatching(/^[12]$/) });
      expect(direct[1]!.body).toMatchObject({ code: '000', lbsStat: '2' });
      // Both cached by now: the same answer, the same headers.
      for (const r of routed) expect(r).toEqual(direct[1]);
    },
  );

  it('leaves refusals to Nest, which answers them as before', async () => {
    const path = '/lbsapi/api/lbsQuery';
    const cases: Array<[(q: URLSearchParams) => void, number, Record<string, string>]> = [
      [(q) => q.set('signature', '0'.repeat(64)), 401, { code: '100', resultDesc: 'bad signature' }],
      [(q) => q.set('userToken', 'app-00'), 401, { code: '100', resultDesc: 'unknown userToken' }],
      [(q) => q.append('param.latitude', '1'), 400, { code: '099', resultDesc: 'repeated param.latitude' }],
      [(q) => q.set('param.extra', '1'), 400, { code: '099', resultDesc: 'unknown parameter param.extra' }],
    ];
    for (const [edit, status, body] of cases) {
      let res: Awaited<ReturnType<typeof get>> | undefined;
      expect(await routedByExpress(run.s, async () => (res = await get(run.s, 'lbsQuery', path, edit)))).toBe(1);
      expect({ status: res!.status, body: res!.body }).toEqual({ status, body: { ...body, lbsStat: '0' } });
    }
  });

  it('writes the accounting line of a direct answer as of a routed one', async () => {
    const before = run.s.logs.of('Accounting').length;
    await get(run.s, 'lbsQuery', '/lbsapi/api/lbsQuery');
    await get(run.s, 'lbsQuery', '/lbsapi/api/lbsquery');
    const [direct, routed] = run.s.logs.of('Accounting').slice(before);
    const stable = (line: Record<string, unknown> | undefined) => ({ ...line, time: 0, ms: 0, requestId: typeof line?.requestId });
    expect(direct).toMatchObject({ op: 'lbsQuery', app: DEMO_APP.appToken, productId: 'P1', code: '000', lbsStat: '2', status: 200 });
    expect(stable(direct)).toEqual(stable(routed));
  });

  it("answers the console's origin with its CORS headers on a direct route", async () => {
    const origin = { Origin: 'http://127.0.0.1:3001' };
    const direct = await get(run.s, 'lbsQuery', '/lbsapi/api/lbsQuery', undefined, origin);
    const routed = await get(run.s, 'lbsQuery', '/lbsapi/api/lbsquery', undefined, origin);
    expect(direct.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3001');
    expect(direct).toEqual(routed);
  });
});

describe('location direct routes under a rate limit', () => {
  const run = sessionOnSharedRedis('direct-rate', { RATE_LIMIT_PER_MINUTE: '2' });

  it('takes one token per answered request, on either path, and refuses the third with 429 099', async () => {
    expect((await get(run.s, 'lbsQuery', '/lbsapi/api/lbsQuery')).status).toBe(200);
    expect((await get(run.s, 'lbsQuery', '/lbsapi/api/lbsquery')).status).toBe(200);
    const limited = await get(run.s, 'lbsQuery', '/lbsapi/api/lbsQuery');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: '099', resultDesc: 'too many requests', lbsStat: '0' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
