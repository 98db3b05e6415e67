/**
 * Registration and modification on the real repositories, each with its audit event in the
 * same transaction (docs/contract.md §9, §10, §11); a refused change writes no event.
 */
import type { ModifyUserDto } from '../../src/users/dto/modify-user.dto';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { APP_A, type AccountServices, accountServices, outcome, seedAuth, seedGroup, seedUser } from './medium.factory';

let db: MediumDatabase;
let s: AccountServices;

beforeAll(async () => {
  db = await mediumDatabase();
  s = accountServices(db);
  await seedAuth(s, APP_A, 'AU-1', { auth_state: '1' });
  await seedGroup(s, APP_A, 'GR-1', { group_auths: 'AU-1' });
});
afterAll(() => db?.close());

async function eventsOf(resourceId: string) {
  return (await s.events.page(APP_A.appToken, { resource_id: resourceId })).events;
}
async function eventCount(): Promise<number> {
  const [row] = (await db.dataSource.query(`SELECT count(*)::int AS n FROM audit_events`)) as { n: number }[];
  return row!.n;
}
const modify = (loginId: string, dto: ModifyUserDto) => outcome(s.users.modify(APP_A.appToken, loginId, dto));

describe('users: registration and modification with their audit events', () => {
  it('records a register and a modify: password only as "changed", certificate and mobile masked', async () => {
    await seedUser(s, APP_A, 'audited', { user_name: 'Alice', cert_id: '110101199003071234', user_mobile: '13912345678' });
    expect(await modify('audited', { user_pwd: 'N3w-secret!', user_mobile: '13800001111', user_name: 'Alice' })).toMatchObject({
      code: '90000',
    });
    const events = await eventsOf('audited');
    expect(events.map((e) => [e.action, e.resource_type, e.result_code])).toEqual([
      ['create', 'user', '90000'],
      ['modify', 'user', '90000'],
    ]);
    expect(JSON.parse(events[0]!.changes)).toEqual({
      user_name: { to: 'Alice' },
      user_type: { to: 'C' },
      user_pwd: { to: 'changed' },
      cert_id: { to: '**************1234' },
      user_mobile: { to: '*******5678' },
    });
    expect(JSON.parse(events[1]!.changes)).toEqual({
      user_pwd: { to: 'changed' },
      user_mobile: { from: '*******5678', to: '*******1111' },
    });
    const all = events.map((e) => e.changes).join('\n');
    for (const secret of ['110101199003071234', '13912345678', '13800001111', 'N3w-secret!', 'P@ssw0rd!'])
      expect(all).not.toContain(secret);
  });

  it('stores personal data encrypted and reads it back as written (docs/contract.md §11)', async () => {
    const [row] = (await db.dataSource.query(`SELECT cert_id, user_mobile FROM users WHERE app_token = $1 AND user_login_id = 'audited'`, [
      APP_A.appToken,
    ])) as { cert_id: string; user_mobile: string }[];
    expect(row!.cert_id).not.toContain('1234');
    expect(row!.user_mobile).not.toContain('1111');
    expect(await s.users.get(APP_A.appToken, 'audited')).toMatchObject({ cert_id: '110101199003071234', user_mobile: '13800001111' });
  });

  it('writes no event and no row for a change that fails (duplicate id, missing reference, unknown login id)', async () => {
    const before = await eventCount();
    expect(await outcome(seedUser(s, APP_A, 'audited'))).toMatchObject({ code: '20020' });
    expect(await outcome(seedUser(s, APP_A, 'audited', { user_pwd: undefined, is_domain_user: '1' }))).toMatchObject({ code: '20020' });
    expect(await outcome(seedUser(s, APP_A, 'linked-badly', { user_auths: 'AU-1,NO-SUCH' }))).toEqual({
      code: '90100',
      message: 'unknown item in user_auths',
    });
    expect(await outcome(seedUser(s, APP_A, 'linked-badly', { user_auth_groups: 'NO-SUCH' }))).toEqual({
      code: '90100',
      message: 'unknown item in user_auth_groups',
    });
    expect(await modify('audited', { user_name: 'x', user_auths: 'AU-1', user_auth_groups: 'NO-SUCH' })).toEqual({
      code: '90100',
      message: 'unknown item in user_auth_groups',
    });
    expect(await s.users.get(APP_A.appToken, 'audited')).toMatchObject({ user_name: 'Alice', user_auths: null });
    expect(await modify('no-such-user', { user_name: 'x' })).toMatchObject({ code: '20130' });
    expect(await eventCount()).toBe(before);
    expect(await eventsOf('linked-badly')).toEqual([]);
    expect(await s.repositories.users.exists(APP_A.appToken, 'linked-badly')).toBe(false);
  });

  it('refuses a password for a domain user, on register and on modify (docs/contract.md §9)', async () => {
    expect(await outcome(seedUser(s, APP_A, 'domain-one', { is_domain_user: '1' }))).toMatchObject({ code: '90100' });
    await seedUser(s, APP_A, 'domain-one', { is_domain_user: '1', user_pwd: undefined });
    expect(await modify('domain-one', { user_pwd: 'whatever-123' })).toMatchObject({ code: '90100' });
  });

  it('links the user to its auths and groups, replaced on modify', async () => {
    await seedUser(s, APP_A, 'linked', { user_auths: 'AU-1', user_auth_groups: 'GR-1' });
    expect(await s.permissions.holds(APP_A.appToken, 'linked', 'AU-1')).toEqual({ has: true, via: 'direct' });
    await modify('linked', { user_auths: '' });
    expect(await s.permissions.holds(APP_A.appToken, 'linked', 'AU-1')).toEqual({ has: true, via: 'group:GR-1' });
    await modify('linked', { user_auth_groups: '' });
    expect(await s.permissions.holds(APP_A.appToken, 'linked', 'AU-1')).toEqual({ has: false, via: null });
  });
});
