import { APP_A, type AccountHarness, type RunningAccountApp, listenAccountApp, startAccountHarness } from './support/account-harness';
import { NEW_USER, seedUser } from './support/user-fixtures';

const FAILED = { response_code: '20441', response_message: 'login verification failed' };
const LOCKED = { response_code: '20443', response_message: 'too many failed logins' };
const PASSWORD = NEW_USER.user_pwd;

/** Cheap hashes: these tests are about counting, not hashing. */
const CHEAP = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };

describe('login lockout: 5 failures in 15 minutes lock for 15 minutes (defaults)', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: CHEAP });
  });
  afterAll(() => h?.close());

  async function failures(appToken: string, loginId: string) {
    const { rows } = await h.db.query(
      `SELECT cardinality(failed_at) AS failures,
              round(extract(epoch FROM locked_until - last_failed_at))::int AS lock_seconds
         FROM login_failures WHERE app_token = $1 AND user_login_id = $2`,
      [appToken, loginId],
    );
    return rows[0] as { failures: number; lock_seconds: number | null } | undefined;
  }

  const wrong = (loginId: string, client = h.a) => client.login(loginId, 'not the password');

  it('counts each of 4 concurrent failures exactly once, without locking', async () => {
    await seedUser(h.a, 'burst-4');
    const results = await Promise.all(Array.from({ length: 4 }, () => wrong('burst-4')));
    for (const r of results) expect(r).toMatchObject({ status: 401, body: FAILED });
    expect(await failures(APP_A.appToken, 'burst-4')).toEqual({ failures: 4, lock_seconds: null });
    expect((await h.a.login('burst-4', PASSWORD)).status).toBe(200);
  });

  it('counts each of 5 concurrent failures exactly once, and locks', async () => {
    await seedUser(h.a, 'burst-5');
    const results = await Promise.all(Array.from({ length: 5 }, () => wrong('burst-5')));
    for (const r of results) expect(r).toMatchObject({ status: 401, body: FAILED });
    expect(await failures(APP_A.appToken, 'burst-5')).toEqual({ failures: 5, lock_seconds: 900 });
    expect(await h.a.login('burst-5', PASSWORD)).toMatchObject({ status: 403, body: LOCKED });
  });

  it('under a burst of 20 concurrent failures, lets at most the checks already running finish', async () => {
    await seedUser(h.a, 'burst-20');
    const results = await Promise.all(Array.from({ length: 20 }, () => wrong('burst-20')));
    const codes = results.map((r) => (r.body as { response_code: string }).response_code);
    expect(codes.filter((c) => c === '20441').length).toBeGreaterThanOrEqual(5);
    expect(codes.every((c) => c === '20441' || c === '20443')).toBe(true);
    expect(await h.a.login('burst-20', PASSWORD)).toMatchObject({ status: 403, body: LOCKED });
  });

  describe('with a second instance on the same database', () => {
    let second: RunningAccountApp;

    beforeAll(async () => {
      second = await listenAccountApp(h.databaseUrl, { env: CHEAP });
    });
    afterAll(() => second?.app.close());

    it('counts failures on both instances together and locks on both', async () => {
      await seedUser(h.a, 'roaming');
      const other = second.client(APP_A);
      for (let i = 0; i < 3; i++) expect((await wrong('roaming')).status).toBe(401);
      for (let i = 0; i < 2; i++) expect((await wrong('roaming', other)).status).toBe(401);
      expect(await other.login('roaming', PASSWORD)).toMatchObject({ status: 403, body: LOCKED });
      expect(await h.a.login('roaming', PASSWORD)).toMatchObject({ status: 403, body: LOCKED });
    });
  });
});
