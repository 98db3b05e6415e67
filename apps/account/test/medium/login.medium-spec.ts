/**
 * The login's rules on the real repositories: the lockout (failures counted per app and login
 * id, the lock, its end) and the audit event of every attempt (docs/contract.md §6, §10).
 */
import type { LoginDto } from '../../src/login/dto/login.dto';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { APP_A, APP_B, type AccountServices, type ScopedApp, accountServices, outcome, sealedPassword, seedUser } from './medium.factory';

const PASSWORD = 'P@ssw0rd!';
const OK = { code: '90000', message: 'success' };
const FAILED = { code: '20441', message: 'login verification failed' };
const LOCKED = { code: '20443', message: 'too many failed logins' };

let db: MediumDatabase;

beforeAll(async () => {
  db = await mediumDatabase();
});
afterAll(() => db?.close());

function login(s: AccountServices, loginId: string, password: string, app: ScopedApp = APP_A) {
  return outcome(s.login.login(app, loginId, { user_pwd_encrypt: sealedPassword(app, password) } as LoginDto));
}

describe('login lockout: 5 failures in 15 minutes lock for 15 minutes (defaults)', () => {
  let s: AccountServices;
  beforeAll(() => {
    s = accountServices(db);
  });

  async function failures(app: ScopedApp, loginId: string) {
    const rows = (await db.dataSource.query(
      `SELECT cardinality(failed_at) AS failures,
              round(extract(epoch FROM locked_until - last_failed_at))::int AS lock_seconds
         FROM login_failures WHERE app_token = $1 AND user_login_id = $2`,
      [app.appToken, loginId],
    )) as { failures: number; lock_seconds: number | null }[];
    return rows[0];
  }

  it('locks the login id on the fifth failure: 20443, even with the right password', async () => {
    await seedUser(s, APP_A, 'victim');
    for (let i = 1; i <= 5; i++) expect(await login(s, 'victim', 'not the password')).toEqual(FAILED);
    expect(await failures(APP_A, 'victim')).toEqual({ failures: 5, lock_seconds: 900 });
    expect(await login(s, 'victim', PASSWORD)).toEqual(LOCKED);
    expect(await login(s, 'victim', 'not the password')).toEqual(LOCKED);
  });

  it('writes an audit event per attempt: login_failed up to the lock (included), then login_locked', async () => {
    const page = await s.events.page(APP_A.appToken, { resource_id: 'victim' });
    expect(page.events.map((e) => [e.action, e.result_code])).toEqual([
      ['create', '90000'],
      ...Array.from({ length: 5 }, () => ['login_failed', '20441']),
      ['login_locked', '20443'],
      ['login_locked', '20443'],
    ]);
    expect(page.events.filter((e) => e.action !== 'create').every((e) => e.resource_type === 'user' && e.changes === '')).toBe(true);
  });

  it('resets the count on a successful login, which writes a login event', async () => {
    await seedUser(s, APP_A, 'forgetful');
    for (let i = 0; i < 4; i++) expect(await login(s, 'forgetful', 'wrong')).toEqual(FAILED);
    expect(await failures(APP_A, 'forgetful')).toEqual({ failures: 4, lock_seconds: null });
    expect(await login(s, 'forgetful', PASSWORD)).toEqual(OK);
    expect(await failures(APP_A, 'forgetful')).toBeUndefined();
    for (let i = 0; i < 4; i++) expect(await login(s, 'forgetful', 'wrong')).toEqual(FAILED);
    expect(await login(s, 'forgetful', PASSWORD)).toEqual(OK);
    const actions = (await s.events.page(APP_A.appToken, { resource_id: 'forgetful', action: 'login' })).events.map((e) => e.result_code);
    expect(actions).toEqual(['90000', '90000']);
  });

  it('locks per (app, login id): other users and the same login id in another app are not locked', async () => {
    await seedUser(s, APP_A, 'locked-one');
    await seedUser(s, APP_A, 'neighbour');
    await seedUser(s, APP_B, 'locked-one');
    for (let i = 0; i < 5; i++) await login(s, 'locked-one', 'wrong');
    expect(await login(s, 'locked-one', PASSWORD)).toEqual(LOCKED);
    expect(await login(s, 'neighbour', PASSWORD)).toEqual(OK);
    expect(await login(s, 'locked-one', PASSWORD, APP_B)).toEqual(OK);
  });

  it('locks unknown login ids the same way, so a lock tells nothing about existence', async () => {
    for (let i = 0; i < 5; i++) expect(await login(s, 'does-not-exist', 'wrong')).toEqual(FAILED);
    expect(await login(s, 'does-not-exist', 'wrong')).toEqual(LOCKED);
  });
});

describe('login lockout with short settings (LOGIN_MAX_FAILURES=2, window and lock 1 s)', () => {
  let s: AccountServices;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    s = accountServices(db, { LOGIN_MAX_FAILURES: '2', LOGIN_FAILURE_WINDOW_SECONDS: '1', LOGIN_LOCK_SECONDS: '1' });
    await seedUser(s, APP_B, 'short');
  });

  it('forgets failures older than the window', async () => {
    expect(await login(s, 'short', 'wrong', APP_B)).toEqual(FAILED);
    await pause(1200);
    expect(await login(s, 'short', 'wrong', APP_B)).toEqual(FAILED);
    expect(await login(s, 'short', PASSWORD, APP_B)).toEqual(OK);
  });

  it('lifts the lock when it ends, and counts afresh', async () => {
    expect(await login(s, 'short', 'wrong', APP_B)).toEqual(FAILED);
    expect(await login(s, 'short', 'wrong', APP_B)).toEqual(FAILED);
    expect(await login(s, 'short', PASSWORD, APP_B)).toEqual(LOCKED);
    await pause(1200);
    expect(await login(s, 'short', 'wrong', APP_B)).toEqual(FAILED);
    expect(await login(s, 'short', PASSWORD, APP_B)).toEqual(OK);
  });
});
