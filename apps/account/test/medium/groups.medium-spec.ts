/**
 * The rules of auth groups on the real repositories: members must be auths of the app, a
 * refused change changes nothing, members are replaced as a whole (docs/contract.md §5, §7).
 */
import type { ModifyGroupDto } from '../../src/auth-groups/dto/modify-group.dto';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { APP_A, APP_B, type AccountServices, accountServices, outcome, seedAuth, seedGroup } from './medium.factory';

let db: MediumDatabase;
let s: AccountServices;

beforeAll(async () => {
  db = await mediumDatabase();
  s = accountServices(db);
  for (const id of ['R1', 'R2', 'R3']) await seedAuth(s, APP_A, id, { auth_state: '1' });
  await seedGroup(s, APP_A, 'M-G', { group_auths: 'R1,R2' });
});
afterAll(() => db?.close());

async function members(groupId: string): Promise<string[]> {
  return (await s.repositories.groups.membersOf(APP_A.appToken, [groupId])).map((m) => m.authId).sort();
}
const modify = (groupId: string, dto: ModifyGroupDto) => outcome(s.groups.modify(APP_A.appToken, groupId, dto));

describe('auth group rules', () => {
  it('keeps group_auths as sent and counts each auth once, the detail in group_auths order', async () => {
    await seedGroup(s, APP_A, 'G-SPACES', { group_auths: 'R3, R1 ,R3' });
    const group = await s.groups.get(APP_A.appToken, 'G-SPACES');
    expect(group.group_auths).toBe('R3, R1 ,R3');
    expect(group.group_auth_detail.map((a) => a.auth_id)).toEqual(['R3', 'R1']);
    expect(await members('G-SPACES')).toEqual(['R1', 'R3']);
  });

  it('refuses auths that do not exist: 10422, and creates nothing', async () => {
    expect(await outcome(seedGroup(s, APP_A, 'G-BADAUTH', { group_auths: 'R1,NOPE' }))).toEqual({
      code: '10422',
      message: 'auth information does not exist',
    });
    expect(await s.repositories.groups.findOne(APP_A.appToken, 'G-BADAUTH')).toBeNull();
    expect(await members('G-BADAUTH')).toEqual([]);
  });

  it("refuses another app's auths as members: 10422 (docs/contract.md §5)", async () => {
    expect(await outcome(seedGroup(s, APP_B, 'G-B', { group_auths: 'R1' }))).toMatchObject({ code: '10422' });
  });

  it('replaces the members when group_auths is sent (empty: none)', async () => {
    expect(await modify('M-G', { group_auths: 'R3' })).toMatchObject({ code: '90000' });
    expect(await members('M-G')).toEqual(['R3']);
    expect(await modify('M-G', { group_auths: '' })).toMatchObject({ code: '90000' });
    expect(await members('M-G')).toEqual([]);
  });

  it('refuses auths that do not exist on modify: 10532, and changes nothing (one transaction)', async () => {
    await modify('M-G', { group_name: 'kept', group_auths: 'R1' });
    expect(await modify('M-G', { group_name: 'changed?', group_auths: 'R2,NOPE' })).toEqual({
      code: '10532',
      message: 'auth information does not exist',
    });
    expect(await s.groups.get(APP_A.appToken, 'M-G')).toMatchObject({ group_name: 'kept', group_auths: 'R1' });
    expect(await members('M-G')).toEqual(['R1']);
  });

  it('refuses a missing group on modify (10530) and an existing id on create (10420)', async () => {
    expect(await modify('M-NONE', { group_name: 'x' })).toEqual({ code: '10530', message: 'group id does not exist' });
    expect(await outcome(seedGroup(s, APP_A, 'M-G'))).toEqual({ code: '10420', message: 'group id already exists' });
  });

  it('writes one audit event per create and modify, none for a refused change', async () => {
    const events = (await s.events.page(APP_A.appToken, { resource_id: 'M-G' })).events;
    expect(events.map((e) => [e.action, e.resource_type])).toEqual([
      ['create', 'auth_group'],
      ['modify', 'auth_group'],
      ['modify', 'auth_group'],
      ['modify', 'auth_group'],
    ]);
    expect((await s.events.page(APP_A.appToken, { resource_id: 'G-BADAUTH' })).events).toEqual([]);
  });
});
