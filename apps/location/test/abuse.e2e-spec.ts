/**
 * Abuse of the location service by an app with valid credentials: text moved between
 * parameters under one signature, the shared cache filled with junk, unlimited request rates,
 * and accounting lines that name the path typed rather than the operation served.
 */
import { randomBytes } from 'node:crypto';
import { DEMO_APP, lbsSignedNames, signLbs } from '@geoaccount/signing';
import { loadLocationConfig } from '../src/config/location.config';
import { REDIS_URL, keysUnder, sessionOnSharedRedis, startLocation } from './support/location-session';

/** Random letters and digits, `length` characters (an address no geocoder knows). */
function junk(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length).replace(/[-_]/g, 'x');
}

describe('location abuse by a signed app', () => {
  const run = sessionOnSharedRedis('abuse');
  const prefix = run.prefix;

  describe('a value containing ":" (docs/contract.md §3)', () => {
    it('cannot carry text over to its neighbour under the same signature: 400/099 naming the parameter', async () => {
      // Signed: address 长安街1号, busdepId "D7:X". Sent: address "长安街1号:D7", busdepId X — the same plaintext.
      const names = lbsSignedNames(['city', 'address']);
      const signed = { city: '北京市', address: '长安街1号', busdepId: 'D7:X' };
      const sent = { city: '北京市', address: '长安街1号:D7', busdepId: 'X' };
      const signature = signLbs(DEMO_APP.secret, 'addressQuery', names, signed);
      expect(signLbs(DEMO_APP.secret, 'addressQuery', names, sent)).toBe(signature);
      const res = await run.s.client.call('addressQuery', sent, { signature });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: '099', resultDesc: "':' in param.address", lbsStat: '0' });
    });

    it('is refused in a business parameter too, even when signed as sent', async () => {
      const res = await run.s.client.lbsQuery({ longitude: '116.391275', latitude: '39.907501', merId: 'M:1' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: '099', resultDesc: "':' in param.merId", lbsStat: '0' });
    });
  });

  describe('the cache', () => {
    it('keeps one entry for a city whatever junk address comes with it, under a key of fixed size', async () => {
      const city = '杭州市';
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await run.s.client.addressQuery({ city, address: junk(255) }));
      for (const res of answers) {
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ code: '000', standardCode: '330102' }); // the county of the city's seat (docs/contract.md §13)
      }
      const keys = (await keysUnder(REDIS_URL, prefix)).filter((k) => k.includes('addressQuery'));
      expect(keys).toHaveLength(1);
      // The fallback is the answer for the city alone, and is served from the cache for it.
      const alone = await run.s.client.addressQuery({ city, address: ` ${city}` });
      expect(alone.body).toEqual({ ...answers[4]!.body, lbsStat: '2', resultDesc: 'success (cache)' });
      expect((await keysUnder(REDIS_URL, prefix)).filter((k) => k.includes('addressQuery'))).toHaveLength(1);
    });

    it('builds keys of one length whatever the length of the parameters', async () => {
      await run.s.client.addressQuery({ city: '上海', address: '浦东新区世纪大道100号' });
      await run.s.client.addressQuery({ city: '上海市浦东新区', address: `浦东新区世纪大道100号${'号'.repeat(200)}` });
      await run.s.client.lbsQuery({ longitude: '121.5', latitude: '31.2' });
      await run.s.client.lbsQuery({ longitude: '+121.50000000000000001', latitude: '31.2000000000000000001' });
      const keys = await keysUnder(REDIS_URL, prefix);
      expect(keys.length).toBeGreaterThanOrEqual(3);
      const lengths = new Set(keys.map((k) => Buffer.byteLength(k.slice(k.lastIndexOf(':') + 1))));
      expect([...lengths]).toEqual([43]);
      for (const key of keys) expect(Buffer.byteLength(key)).toBeLessThanOrEqual(Buffer.byteLength(prefix) + 64);
    });

    it('still answers a full address from its own entry, not the city fallback', async () => {
      const first = await run.s.client.addressQuery({ city: '上海', address: '浦东新区世纪大道100号' });
      expect(first.body).toMatchObject({ code: '000', lbsStat: '2', standardCode: '310115' });
      const city = await run.s.client.addressQuery({ city: '上海', address: junk(40) });
      expect(city.body).toMatchObject({ code: '000', standardCode: '310101' });
    });
  });

  describe('the accounting line', () => {
    it('names the operation served, whatever the case or trailing slash of the path', async () => {
      const params = { 'param.longitude': '116.391275', 'param.latitude': '39.907501' };
      const signature = signLbs(DEMO_APP.secret, 'lbsQuery', lbsSignedNames(['longitude', 'latitude']), {
        longitude: params['param.longitude'],
        latitude: params['param.latitude'],
      });
      const before = run.s.logs.of('Accounting').length;
      for (const path of ['/lbsapi/api/lbsquery', '/lbsapi/api/lbsQuery/', '/LBSAPI/api/LBSQUERY']) {
        const query = new URLSearchParams({ ...params, userToken: DEMO_APP.appToken, signature });
        const res = await fetch(`${run.s.url}${path}?${query}`);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { code: string }).code).toBe('000');
      }
      // The finish listener runs after the answer is read; give it a tick.
      await new Promise((r) => setTimeout(r, 50));
      const lines = run.s.logs.of('Accounting').slice(before);
      expect(lines.map((l) => l.op)).toEqual(['lbsQuery', 'lbsQuery', 'lbsQuery']);
    });
  });
});

describe('the per-app rate limit of the location service', () => {
  it('refuses an app past its budget with 429/099 and Retry-After, without any setting', async () => {
    const s = await startLocation({});
    try {
      const budget = loadLocationConfig({}).RATE_LIMIT_PER_MINUTE;
      let refused: Awaited<ReturnType<typeof s.direct.lbsQuery>> | undefined;
      // Directly: through a validating proxy the budget would refill faster than it is spent.
      for (let i = 0; i < budget * 2 && !refused; i++) {
        const res = await s.direct.lbsQuery({ longitude: '116.391275', latitude: '39.907501' });
        if (res.status === 429) refused = res;
        else expect(res.status).toBe(200);
      }
      expect(refused?.body).toEqual({ code: '099', resultDesc: 'too many requests', lbsStat: '0' });
      expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await s.close();
    }
    // over a thousand requests one after the other: room for a busy machine
  }, 120_000);
});
