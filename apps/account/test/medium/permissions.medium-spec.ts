/**
 * Effective permissions on the real repositories (interfaces 205, 206): what a user holds
 * directly, through its groups and through their ancestors, enabled auths only.
 */
import type { AuthSummary } from '../../src/auth-groups/auth-group.view';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { APP_A, APP_B, type AccountServices, accountServices, outcome, seedAuth, seedGroup, seedUser } from './medium.factory';

let db: MediumDatabase;
let s: AccountServices;

beforeAll(async () => {
  db = await mediumDatabase();
  s = accountServices(db);
  // root > mid > leaf;  gate (disabled) > below;  off (disabled);  solo, extra
  await seedAuth(s, APP_A, 'root', { auth_state: '1', sub_auth_flag: '1' });
  await seedAuth(s, APP_A, 'mid', { auth_state: '1', parent_auth_id: 'root', sub_auth_flag: '1' });
  await seedAuth(s, APP_A, 'leaf', { auth_state: '1', parent_auth_id: 'mid', auth_type: 'button', auth_level: '3' });
  await seedAuth(s, APP_A, 'gate', { auth_state: '0' });
  await seedAuth(s, APP_A, 'below', { auth_state: '1', parent_auth_id: 'gate' });
  await seedAuth(s, APP_A, 'off', { auth_state: '0' });
  await seedAuth(s, APP_A, 'solo', { auth_state: '1', auth_desc: 'not listed' });
  await seedAuth(s, APP_A, 'extra', { auth_state: '1' });
  await seedAuth(s, APP_A, 'nostate');
  await seedGroup(s, APP_A, 'G-MID', { group_auths: 'mid,off' });
  await seedGroup(s, APP_A, 'G-SOLO', { group_auths: 'solo,mid' });
  await seedUser(s, APP_A, 'grantee', { user_auths: 'solo,off,nostate', user_auth_groups: 'G-MID,G-SOLO' });
  await seedUser(s, APP_A, 'via-gate', { user_auths: 'gate,root' });
});
afterAll(() => db?.close());

function summary(authId: string, fields: Partial<AuthSummary> = {}): AuthSummary {
  return {
    auth_id: authId,
    auth_name: authId,
    auth_state: '1',
    auth_type: null,
    auth_level: null,
    parent_auth_id: '',
    sub_auth_flag: null,
    ...fields,
  };
}
const effective = (loginId: string) => s.permissions.effective(APP_A.appToken, loginId);
const holds = (loginId: string, authId: string) => s.permissions.holds(APP_A.appToken, loginId, authId);

describe('effective auths of a user', () => {
  it('lists user_auths plus the auths of user_auth_groups, only auth_state 1, once each, in creation order', async () => {
    expect(await effective('grantee')).toEqual([summary('mid', { parent_auth_id: 'root', sub_auth_flag: '1' }), summary('solo')]);
  });

  it('follows changes of the auths, of the user and of its groups', async () => {
    await seedUser(s, APP_A, 'changing', { user_auths: 'extra' });
    expect(await effective('changing')).toEqual([summary('extra')]);
    await s.auths.modify(APP_A.appToken, 'extra', { auth_state: '0' });
    expect(await effective('changing')).toEqual([]);
    await s.users.modify(APP_A.appToken, 'changing', { user_auth_groups: 'G-SOLO' });
    expect(await effective('changing')).toEqual([summary('mid', { parent_auth_id: 'root', sub_auth_flag: '1' }), summary('solo')]);
    await s.groups.modify(APP_A.appToken, 'G-SOLO', { group_auths: 'solo' });
    expect(await effective('changing')).toEqual([summary('solo')]);
    await s.groups.modify(APP_A.appToken, 'G-SOLO', { group_auths: 'solo,mid' });
  });

  it('an unknown user, also one of another app: 20501', async () => {
    expect(await outcome(effective('ghost'))).toMatchObject({ code: '20501' });
    expect(await outcome(s.permissions.effective(APP_B.appToken, 'grantee'))).toMatchObject({ code: '20501' });
  });
});

describe('whether a user holds an auth', () => {
  it('holds a direct auth', async () => {
    expect(await holds('grantee', 'solo')).toEqual({ has: true, via: 'direct' });
  });

  it('holds an auth of a group, naming the first group of user_auth_groups that grants it', async () => {
    expect(await holds('grantee', 'mid')).toEqual({ has: true, via: 'group:G-MID' });
  });

  it('holds a descendant of an effective auth, naming that ancestor', async () => {
    expect(await holds('grantee', 'leaf')).toEqual({ has: true, via: 'ancestor:mid' });
    expect(await holds('via-gate', 'leaf')).toEqual({ has: true, via: 'ancestor:root' });
  });

  it('does not hold an ancestor of an effective auth', async () => {
    expect(await holds('grantee', 'root')).toEqual({ has: false, via: null });
  });

  it('never holds a disabled auth, nor what only a disabled auth passes down', async () => {
    for (const [loginId, authId] of [
      ['grantee', 'off'],
      ['grantee', 'nostate'],
      ['via-gate', 'gate'],
      ['via-gate', 'below'],
    ] as const) {
      expect(await holds(loginId, authId)).toEqual({ has: false, via: null });
    }
  });
});
