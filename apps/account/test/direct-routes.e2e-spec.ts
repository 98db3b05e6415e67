/**
 * The reads of one record are served by direct routes (src/common/account-direct-routes.ts):
 * the same answers, headers and refusals as through Express's router and Nest, which still
 * serve every other spelling of their paths (here: a trailing slash, signed as sent). The reads
 * go to the service itself, never through the run's OpenAPI proxy: the other spellings, and a
 * path that does not decode, are not in the document.
 */
import { TestAccountClient, accountPath } from '@geoaccount/client/internal';
import { routedByExpress as routedByTheRouter } from '@geoaccount/testing';
import { APP_A, type AccountHarness, startAccountHarness } from './support/account-harness';
import { seedAuth, seedGroup } from './support/fixtures';
import { seedUser } from './support/user-fixtures';

type Ids = Partial<Record<'auth_id' | 'group_id' | 'user_login_id', string>>;

/** The five reads, each as a path's segments and its ids. */
const READS: Array<[string, string[], Ids]> = [
  ['GET /users/{id}', ['users', 'reader'], { user_login_id: 'reader' }],
  ['GET /auths/{id}', ['auths', 'D-A1'], { auth_id: 'D-A1' }],
  ['GET /authgroups/{id}', ['authgroups', 'D-G1'], { group_id: 'D-G1' }],
  ['GET /users/{id}/auths', ['users', 'reader', 'auths'], { user_login_id: 'reader' }],
  ['GET /users/{id}/auths/{auth_id}', ['users', 'reader', 'auths', 'D-A1'], { user_login_id: 'reader', auth_id: 'D-A1' }],
];

/** A signed GET of `path` (a service path, spelled as given), its answer without the per-request headers. */
async function read(
  client: TestAccountClient,
  path: string,
  ids: Ids,
  tweaks: Parameters<TestAccountClient['request']>[4] = {},
  query = {},
) {
  const res = await client.request('GET', path, query, ids, tweaks);
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id') headers[name] = value;
  });
  return { status: res.status, headers, body: res.body as Record<string, unknown> };
}

describe('account direct routes (the reads of one record)', () => {
  let h: AccountHarness;
  /** App A's signed client on the service's own address (the harness's may go through the OpenAPI proxy). */
  let a: TestAccountClient;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' } });
    await seedAuth(h.a, 'D-A1', { auth_state: '1' });
    await seedGroup(h.a, 'D-G1', { group_auths: 'D-A1' });
    await seedUser(h.a, 'reader', { user_auth_groups: 'D-G1' });
    a = new TestAccountClient({ retries: 0, baseUrl: h.baseUrl, ...APP_A });
  });
  afterAll(() => h?.close());

  const routedByExpress = (during: () => Promise<unknown>) => routedByTheRouter(h.app, during);

  it.each(READS)('%s: answered without the router, as the router answers its other spelling', async (_name, segments, ids) => {
    const path = accountPath(...segments);
    let direct: Awaited<ReturnType<typeof read>> | undefined;
    let routed: Awaited<ReturnType<typeof read>> | undefined;
    expect(await routedByExpress(async () => (direct = await read(a, path, ids)))).toBe(0);
    expect(await routedByExpress(async () => (routed = await read(a, `${path}/`, ids)))).toBe(1);
    expect(direct!.status).toBe(200);
    expect(direct!.body.response_code).toMatch(/^(90000|20511)$/);
    expect(direct).toEqual(routed);
  });

  it('answers a percent-encoded id as the router decodes it', async () => {
    await seedUser(h.a, 'ré sumé');
    const path = accountPath('users', 'ré sumé');
    expect(path).toContain('r%C3%A9%20sum%C3%A9');
    let direct: Awaited<ReturnType<typeof read>> | undefined;
    expect(await routedByExpress(async () => (direct = await read(a, path, { user_login_id: 'ré sumé' })))).toBe(0);
    expect(direct!.body).toMatchObject({ response_code: '90000', user_login_id: 'ré sumé' });
    expect(await read(a, `${path}/`, { user_login_id: 'ré sumé' })).toEqual(direct);
  });

  it('leaves refusals to Nest, which answers them as before', async () => {
    const path = accountPath('users', 'reader');
    const ids = { user_login_id: 'reader' };
    const cases: Array<[string, () => Promise<Awaited<ReturnType<typeof read>>>, number, Record<string, unknown>]> = [
      [
        'bad signature',
        () => read(a, path, ids, { signature: '0'.repeat(64) }),
        401,
        { response_code: '90401', response_message: 'bad signature' },
      ],
      [
        'unknown app',
        () => read(a, path, ids, { appToken: 'app-unknown' }),
        401,
        { response_code: '90401', response_message: 'unknown app_token' },
      ],
      [
        'unknown field',
        () => read(a, path, ids, {}, { extra: '1' }),
        400,
        { response_code: '90100', response_message: 'unknown field extra' },
      ],
      [
        'id too long',
        () => read(a, accountPath('users', 'x'.repeat(65)), { user_login_id: 'x'.repeat(65) }),
        400,
        { response_code: '90100', response_message: expect.stringContaining('user_login_id') },
      ],
    ];
    for (const [name, send, status, body] of cases) {
      let res: Awaited<ReturnType<typeof read>> | undefined;
      expect([name, await routedByExpress(async () => (res = await send()))]).toEqual([name, 1]);
      expect([name, res!.status]).toEqual([name, status]);
      expect(res!.body).toMatchObject(body);
    }
    // A segment that does not decode: the router's own answer, whatever it is.
    let malformed: Awaited<ReturnType<typeof read>> | undefined;
    expect(
      await routedByExpress(async () => (malformed = await read(a, '/account/v1.0.1/users/%E0%A4%A', {}, { signature: '0'.repeat(64) }))),
    ).toBe(1);
    expect(malformed!.status).toBeGreaterThanOrEqual(400);
  });

  it('claims the nonce of a direct read: the same nonce again is refused as a replay', async () => {
    const path = accountPath('users', 'reader');
    const ids = { user_login_id: 'reader' };
    const nonce = `direct-${Date.now()}`;
    let first: Awaited<ReturnType<typeof read>> | undefined;
    let second: Awaited<ReturnType<typeof read>> | undefined;
    expect(await routedByExpress(async () => (first = await read(a, path, ids, { nonce })))).toBe(0);
    expect(await routedByExpress(async () => (second = await read(a, path, ids, { nonce })))).toBe(0);
    expect(first!.status).toBe(200);
    expect(second!.status).toBe(401);
    expect(second!.body).toEqual({ response_code: '90401', response_message: 'replayed nonce' });
  });

  it("answers a missing record with the interface's own code, as Nest does", async () => {
    const path = accountPath('users', 'nobody');
    const ids = { user_login_id: 'nobody' };
    const direct = await read(a, path, ids);
    expect(direct.status).toBe(404);
    expect(direct).toEqual(await read(a, `${path}/`, ids));
  });
});
