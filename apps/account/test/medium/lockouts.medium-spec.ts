/**
 * Unlocking a user's login id (docs/contract.md §14): 30401 when it is not locked, 30101 for
 * an unknown app; a locked one is cleared (the login works again) with an audit event of the user.
 */
import type { LoginDto } from '../../src/login/dto/login.dto';
import { asAppToken } from '../../src/common/app-scope';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { ADMIN, APP_A, accountServices, controlPlaneServices, outcome, sealedPassword, seedUser } from './medium.factory';

let db: MediumDatabase;

beforeAll(async () => {
  db = await mediumDatabase();
});
afterAll(() => db?.close());

describe('unlock', () => {
  it('answers 30401 for a login id that is not locked (never failed, or failed without a lock)', async () => {
    const s = accountServices(db);
    const cp = controlPlaneServices(db);
    await seedUser(s, APP_A, 'calm');
    expect(await outcome(cp.lockouts.unlock(ADMIN, APP_A.appToken, 'calm'))).toEqual({ code: '30401', message: 'not locked' });
    await outcome(s.login.login(APP_A, 'calm', { user_pwd_encrypt: sealedPassword(APP_A, 'wrong') } as LoginDto));
    expect(await outcome(cp.lockouts.unlock(ADMIN, APP_A.appToken, 'calm'))).toEqual({ code: '30401', message: 'not locked' });
  });

  it('answers 30101 for an app that does not exist', async () => {
    expect(await outcome(controlPlaneServices(db).lockouts.unlock(ADMIN, asAppToken('app-0000'), 'x'))).toEqual({ code: '30101', message: 'no such app' });
  });

  it('clears a lock: the right password works again, and the user has an audit event by the operator', async () => {
    const s = accountServices(db);
    const cp = controlPlaneServices(db);
    await seedUser(s, APP_A, 'locked');
    const login = (password: string) => outcome(s.login.login(APP_A, 'locked', { user_pwd_encrypt: sealedPassword(APP_A, password) } as LoginDto));
    for (let i = 0; i < 5; i++) await login('wrong');
    expect((await login('P@ssw0rd!')).code).toBe('20443');
    expect(await outcome(cp.lockouts.unlock(ADMIN, APP_A.appToken, 'locked'))).toMatchObject({ code: '90000' });
    expect((await login('P@ssw0rd!')).code).toBe('90000');
    const [event] = (await db.dataSource.query(
      `SELECT action, operator, changes::json AS changes FROM audit_events
        WHERE app_token = $1 AND resource_type = 'user' AND resource_id = 'locked' AND operator = 'admin'`,
      [APP_A.appToken],
    )) as unknown[];
    expect(event).toEqual({ action: 'modify', operator: 'admin', changes: { locked: { from: true, to: false } } });
  });
});
