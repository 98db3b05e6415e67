import { type AccountHarness, type RunningAccountApp, APP_A, listenAccountApp, startAccountHarness } from './support/account-harness';
import { seedAuth } from './support/fixtures';
import { seedUser } from './support/user-fixtures';

const TOO_DEEP = { response_code: '90100', response_message: 'too deep parent_auth_id' };
const OK_CREATED = { response_code: '90000', response_message: 'success' };

/** D1 (root) > D2 > ... > D64: a chain exactly as deep as the default limit. */
const LIMIT = 64;
const chain = Array.from({ length: LIMIT }, (_, i) => `D${i + 1}`);

describe('auth hierarchy depth (AUTH_MAX_DEPTH)', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' } });
  });
  afterAll(() => h?.close());

  it(`takes a chain of ${LIMIT} auths (the default limit) and refuses a ${LIMIT + 1}th level`, async () => {
    expect(h.config.AUTH_MAX_DEPTH).toBe(LIMIT);
    for (const [i, id] of chain.entries()) await seedAuth(h.a, id, { auth_state: '1', ...(i > 0 && { parent_auth_id: chain[i - 1] }) });
    const res = await h.a.createAuth('D65', { auth_name: 'one too deep', auth_state: '1', parent_auth_id: `D${LIMIT}` });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: TOO_DEEP });
    expect((await h.a.getAuth('D65')).status).toBe(404);
  });

  it('inherits through the whole chain at the limit', async () => {
    await seedUser(h.a, 'holder', { user_auths: 'D1' });
    const res = await h.a.userHasAuth('holder', `D${LIMIT}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ has_auth: '1', via: 'ancestor:D1' });
  });

  it('refuses a re-parenting that would put a descendant past the limit, and takes one that reaches it', async () => {
    await seedAuth(h.a, 'X1', { auth_state: '1' });
    await seedAuth(h.a, 'X2', { auth_state: '1', parent_auth_id: 'X1' });
    // Under D63, X1 would be level 64 and X2 level 65.
    const deep = await h.a.modifyAuth('X1', { parent_auth_id: `D${LIMIT - 1}` });
    expect({ status: deep.status, body: deep.body }).toEqual({ status: 400, body: TOO_DEEP });
    expect(await parentOf('X1')).toBeNull();
    // Under D62, X2 is level 64: at the limit.
    const ok = await h.a.modifyAuth('X1', { parent_auth_id: `D${LIMIT - 2}` });
    expect({ status: ok.status, body: ok.body }).toEqual({ status: 201, body: OK_CREATED });
    expect((await h.a.userHasAuth('holder', 'X2')).body).toMatchObject({ has_auth: '1', via: 'ancestor:D1' });
    // X2 is now at the limit: nothing can go under it.
    const under = await h.a.createAuth('X3', { auth_name: 'x', parent_auth_id: 'X2' });
    expect({ status: under.status, body: under.body }).toEqual({ status: 400, body: TOO_DEEP });
  });

  it('lets a modification that keeps the parent or removes it pass at any depth', async () => {
    expect((await h.a.modifyAuth(`D${LIMIT}`, { auth_desc: 'still here', parent_auth_id: `D${LIMIT - 1}` })).status).toBe(201);
    expect((await h.a.modifyAuth('X2', { parent_auth_id: '' })).status).toBe(201);
  });

  describe('with AUTH_MAX_DEPTH=3', () => {
    let small: RunningAccountApp;
    beforeAll(async () => {
      small = await listenAccountApp(h.databaseUrl, { env: { AUTH_MAX_DEPTH: '3' } });
    });
    afterAll(() => small?.app.close());

    it('takes 3 levels, refuses a 4th, and inherits through 2 ancestors', async () => {
      const a = small.client(APP_A);
      await seedAuth(a, 'S1', { auth_state: '1' });
      await seedAuth(a, 'S2', { auth_state: '1', parent_auth_id: 'S1' });
      await seedAuth(a, 'S3', { auth_state: '1', parent_auth_id: 'S2' });
      const res = await a.createAuth('S4', { auth_name: 'x', parent_auth_id: 'S3' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: TOO_DEEP });
      await seedUser(a, 'small-holder', { user_auths: 'S1' });
      expect((await a.userHasAuth('small-holder', 'S3')).body).toMatchObject({ has_auth: '1', via: 'ancestor:S1' });
    });
  });

  async function parentOf(authId: string): Promise<string | null> {
    const { rows } = await h.db.query(`SELECT parent_auth_id FROM auths WHERE app_token = $1 AND auth_id = $2`, [APP_A.appToken, authId]);
    return (rows[0] as { parent_auth_id: string | null }).parent_auth_id;
  }
});
