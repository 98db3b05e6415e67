/**
 * Operator sign-in and sessions (docs/contract.md §14) on the real repositories: a wrong
 * password is 90401, five failures lock the operator (30402, recorded), a session ends after
 * 30 idle minutes, a cookie change needs the CSRF token.
 */
import type { Request } from 'express';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { ADMIN, type ControlPlaneServices, controlPlaneServices, outcome } from './medium.factory';

const PASSWORD = 'operator-password-1';
const BAD = { code: '90401', message: 'sign-in failed' };
const LOCKED = { code: '30402', message: 'operator locked' };
const NOT_SIGNED_IN = { code: '90401', message: 'not signed in' };

let db: MediumDatabase;
let s: ControlPlaneServices;

beforeAll(async () => {
  db = await mediumDatabase();
  s = controlPlaneServices(db);
});
afterAll(() => db?.close());

function request(headers: Record<string, string>, method = 'GET'): Request {
  return { headers, method } as unknown as Request;
}

describe('sign-in', () => {
  it('opens a session for the right password; a wrong one and an unknown login are the same 90401', async () => {
    await s.operators.create(ADMIN, { login: 'ann', role: 'auditor', password: PASSWORD });
    const opened = await s.sessions.signIn('ann', PASSWORD);
    expect(opened.principal).toEqual({ login: 'ann', role: 'auditor', apps: [], via: 'cookie' });
    expect(await s.sessions.authenticate(request({ authorization: `Bearer ${opened.token}` }))).toMatchObject({ login: 'ann', via: 'bearer-session' });
    expect(await outcome(s.sessions.signIn('ann', 'wrong-password-1'))).toEqual(BAD);
    expect(await outcome(s.sessions.signIn('nobody', PASSWORD))).toEqual(BAD);
  });

  it('refuses a disabled operator with the right password (90401)', async () => {
    await s.operators.create(ADMIN, { login: 'off', role: 'auditor', password: PASSWORD });
    await s.operators.modify(ADMIN, 'off', { state: 'disabled' });
    expect(await outcome(s.sessions.signIn('off', PASSWORD))).toEqual(BAD);
  });
});

describe('lockout', () => {
  it('locks after 5 failures (30402, even with the right password, recorded); enabling the operator unlocks', async () => {
    await s.operators.create(ADMIN, { login: 'bob', role: 'auditor', password: PASSWORD });
    for (let i = 0; i < 5; i++) expect(await outcome(s.sessions.signIn('bob', 'wrong-password-1'))).toEqual(BAD);
    expect(await outcome(s.sessions.signIn('bob', PASSWORD))).toEqual(LOCKED);
    expect((await s.operators.get('bob')).locked).toBe(true);
    const events = (await db.dataSource.query(
      `SELECT action, result_code FROM audit_events WHERE resource_type = 'session' AND resource_id = 'bob' ORDER BY event_id`,
    )) as { action: string; result_code: string }[];
    expect(events.map((e) => e.result_code)).toEqual(['90401', '90401', '90401', '90401', '90401', '30402']);
    await s.operators.modify(ADMIN, 'bob', { state: 'enabled' });
    expect((await s.operators.get('bob')).locked).toBe(false);
    expect(await outcome(s.sessions.signIn('bob', PASSWORD))).toMatchObject({ code: '90000' });
  });

  it("counts an operator's failures apart from another's", async () => {
    await s.operators.create(ADMIN, { login: 'cat', role: 'auditor', password: PASSWORD });
    await s.operators.create(ADMIN, { login: 'dan', role: 'auditor', password: PASSWORD });
    for (let i = 0; i < 4; i++) await outcome(s.sessions.signIn('cat', 'wrong-password-1'));
    expect(await outcome(s.sessions.signIn('dan', PASSWORD))).toMatchObject({ code: '90000' });
    expect(await outcome(s.sessions.signIn('cat', PASSWORD))).toMatchObject({ code: '90000' });
  });
});

describe('session', () => {
  async function idle(token: string, minutes: number): Promise<void> {
    await db.dataSource.query(
      `UPDATE admin_sessions SET last_seen_time = now() - make_interval(mins => $2) WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [token, minutes],
    );
  }

  it('lives while used within 30 minutes and ends after 30 idle minutes (90401)', async () => {
    await s.operators.create(ADMIN, { login: 'eve', role: 'auditor', password: PASSWORD });
    const { token } = await s.sessions.signIn('eve', PASSWORD);
    const bearer = request({ authorization: `Bearer ${token}` });
    await idle(token, 29);
    expect(await outcome(s.sessions.authenticate(bearer))).toMatchObject({ code: '90000' });
    // That use renewed it: 29 more minutes are fine.
    await db.dataSource.query(`UPDATE admin_sessions SET last_seen_time = last_seen_time - interval '29 minutes' WHERE login = 'eve'`);
    expect(await outcome(s.sessions.authenticate(bearer))).toMatchObject({ code: '90000' });
    await idle(token, 31);
    expect(await outcome(s.sessions.authenticate(bearer))).toEqual(NOT_SIGNED_IN);
    expect(await s.repositories.sessions.purge(30 * 60)).toBeGreaterThanOrEqual(1);
  });

  it('needs the CSRF token for a change through the cookie, not for a read; signing out ends it', async () => {
    await s.operators.create(ADMIN, { login: 'fay', role: 'admin', password: PASSWORD });
    const { token, csrfToken } = await s.sessions.signIn('fay', PASSWORD);
    const cookie = `admin_session=${token}`;
    expect(await outcome(s.sessions.authenticate(request({ cookie })))).toMatchObject({ code: '90000' });
    expect(await outcome(s.sessions.authenticate(request({ cookie }, 'POST')))).toEqual({ code: '90403', message: 'missing or wrong X-CSRF-Token' });
    expect(await outcome(s.sessions.authenticate(request({ cookie, 'x-csrf-token': 'nope' }, 'POST')))).toMatchObject({ code: '90403' });
    expect(await s.sessions.authenticate(request({ cookie, 'x-csrf-token': csrfToken }, 'POST'))).toMatchObject({ login: 'fay', via: 'cookie' });
    await s.sessions.signOut(request({ cookie }));
    expect(await outcome(s.sessions.authenticate(request({ cookie })))).toEqual(NOT_SIGNED_IN);
  });
});
