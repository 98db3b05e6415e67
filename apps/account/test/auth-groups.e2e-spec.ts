import { APP_A, type AccountHarness, startAccountHarness } from './support/account-harness';
import { seedAuth, seedGroup } from './support/fixtures';

const OK_CREATED = { response_code: '90000', response_message: 'success' };
const ok = (fields: Record<string, unknown>) => ({ response_code: '90000', response_message: 'success', ...fields });
const invalid = (message: string) => ({ response_code: '90100', response_message: message });
const AUTHS_MISSING_ON_CREATE = { response_code: '10422', response_message: 'auth information does not exist' };
const AUTHS_MISSING_ON_MODIFY = { response_code: '10532', response_message: 'auth information does not exist' };
const NOT_FOUND = { response_code: '10701', response_message: 'query succeeded, no data' };

/** Every group field, unset ones null. */
function groupItem(groupId: string, fields: Record<string, string | null> = {}) {
  return { group_id: groupId, group_name: `name of ${groupId}`, group_desc: null, group_type: null, group_state: null, group_auths: null, ...fields };
}

/** The auth summary of group_auth_detail, for auths seeded with their default name. */
function summary(authId: string, fields: Record<string, string | null> = {}) {
  return { auth_id: authId, auth_name: `name of ${authId}`, auth_state: null, auth_type: null, auth_level: null, parent_auth_id: '', sub_auth_flag: null, ...fields };
}

describe('auth groups (interfaces 104-107)', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness();
    await seedAuth(h.a, 'R1', { auth_state: '1', auth_type: 'menu', auth_level: '1', sub_auth_flag: '1' });
    await seedAuth(h.a, 'R2', { auth_state: '0', parent_auth_id: 'R1' });
    await seedAuth(h.a, 'R3');
  });
  afterAll(() => h?.close());

  async function members(groupId: string): Promise<string[]> {
    const { rows } = await h.db.query<{ auth_id: string }>(
      'SELECT auth_id FROM auth_group_auths WHERE app_token = $1 AND group_id = $2 ORDER BY auth_id',
      [APP_A.appToken, groupId],
    );
    return rows.map((r) => r.auth_id);
  }

  describe('POST /authgroups/{GROUP_ID}', () => {
    it('creates a group with every field; reads it back with the detail of its auths in group_auths order', async () => {
      const res = await h.a.createGroup('G-FULL', { group_name: 'Clerks', group_desc: 'Front office', group_type: 'role', group_state: '1', group_auths: 'R2,R1' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual(OK_CREATED);
      const got = await h.a.getGroup('G-FULL');
      expect(got.status).toBe(200);
      expect(got.body).toEqual(
        ok({
          group_id: 'G-FULL',
          group_name: 'Clerks',
          group_desc: 'Front office',
          group_type: 'role',
          group_state: '1',
          group_auths: 'R2,R1',
          group_auth_detail: [summary('R2', { auth_state: '0', parent_auth_id: 'R1' }), summary('R1', { auth_state: '1', auth_type: 'menu', auth_level: '1', sub_auth_flag: '1' })],
        }),
      );
      expect(await members('G-FULL')).toEqual(['R1', 'R2']);
    });

    it('creates a group with the name only; unset fields read back as null, the detail as []', async () => {
      const res = await h.a.createGroup('G-MIN', { group_name: 'name of G-MIN' }, { multipart: true });
      expect(res.status).toBe(201);
      expect((await h.a.getGroup('G-MIN')).body).toEqual(ok({ ...groupItem('G-MIN'), group_auth_detail: [] }));
    });

    it('accepts the org_id of the spec example (and ignores it)', async () => {
      const res = await h.a.createGroup('G-ORG', { group_name: 'n', org_id: 'ORG1', group_auths: '' });
      expect(res.status).toBe(201);
      expect((await h.a.getGroup('G-ORG')).body).toEqual(ok({ ...groupItem('G-ORG', { group_name: 'n', group_auths: '' }), group_auth_detail: [] }));
    });

    it('requires group_name (400, 90100)', async () => {
      for (const fields of [{}, { group_name: '' }]) {
        const res = await h.a.createGroup('G-NONAME', fields);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalid('missing group_name'));
      }
    });

    it('refuses an existing id: 409, 10420', async () => {
      await seedGroup(h.a, 'G-DUP', { group_name: 'first' });
      const res = await h.a.createGroup('G-DUP', { group_name: 'second', group_auths: 'NOPE' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ response_code: '10420', response_message: 'group id already exists' });
      expect((await h.a.getGroup('G-DUP')).body).toMatchObject({ group_name: 'first' });
    });

    it.each([
      ['group_state', '2', 'bad value of group_state'],
      ['group_auths', 'R1,,R2', 'empty item in group_auths'],
      ['group_auths', ',', 'empty item in group_auths'],
    ])('refuses %s=%j (400, 90100)', async (field, value, message) => {
      const res = await h.a.createGroup('G-BAD', { group_name: 'n', [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(message));
    });

    it('answers 50 concurrent creates of one id with exactly one 201 and 49 × 409 10420', async () => {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => h.a.createGroup('G-RACE', { group_name: `racer ${i}`, group_auths: 'R1,R2' })));
      expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
      const conflicts = answers.filter((r) => r.status === 409);
      expect(conflicts).toHaveLength(49);
      for (const r of conflicts) expect(r.body).toEqual({ response_code: '10420', response_message: 'group id already exists' });
      expect(await members('G-RACE')).toEqual(['R1', 'R2']);
    });
  });

  describe('field lengths (at the limit and one over)', () => {
    it.each([
      ['group_name', 32],
      ['group_desc', 64],
      ['group_type', 32],
    ])('%s: %i characters pass, one more is 90100', async (field, max) => {
      expect((await h.a.createGroup(`L-${field}`, { group_name: 'n', [field]: 'x'.repeat(max) })).status).toBe(201);
      expect((await h.a.getGroup(`L-${field}`)).body).toMatchObject({ [field]: 'x'.repeat(max) });
      const over = await h.a.createGroup(`O-${field}`, { group_name: 'n', [field]: 'x'.repeat(max + 1) });
      expect(over.status).toBe(400);
      expect(over.body).toEqual(invalid(`too long ${field}`));
    });

    it('group_id (path): 64 characters pass, 65 are 90100', async () => {
      const id64 = 'G'.repeat(64);
      expect((await h.a.createGroup(id64, { group_name: 'n' })).status).toBe(201);
      expect((await h.a.getGroup(id64)).body).toMatchObject({ group_id: id64 });
      for (const res of [await h.a.createGroup('G'.repeat(65), { group_name: 'n' }), await h.a.getGroup('G'.repeat(65)), await h.a.modifyGroup('G'.repeat(65), {})]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalid('too long group_id'));
      }
    });

    it('group_auths: 1024 characters pass, 1025 are 90100', async () => {
      await seedAuth(h.a, 'LA-X');
      const at1024 = [...Array<string>(340).fill('R1'), 'LA-X'].join(','); // 340 × "R1," + "LA-X"
      expect(at1024).toHaveLength(1024);
      const res = await h.a.createGroup('L-AUTHS', { group_name: 'n', group_auths: at1024 });
      expect(res.status).toBe(201);
      expect((await h.a.getGroup('L-AUTHS')).body).toMatchObject({ group_auths: at1024, group_auth_detail: [{ auth_id: 'R1' }, { auth_id: 'LA-X' }] });
      const over = await h.a.createGroup('O-AUTHS', { group_name: 'n', group_auths: `${at1024}1` });
      expect(over.status).toBe(400);
      expect(over.body).toEqual(invalid('too long group_auths'));
    });
  });

  describe('SQL metacharacters and unicode', () => {
    it('round-trips ids, names and the auth list unchanged', async () => {
      const authId = `r'"%_\\;--权`;
      const groupId = `g'"; DROP TABLE auth_groups; -- 组 🔐 %_\\`;
      await seedAuth(h.a, authId);
      const fields = { group_name: `组' OR 1=1 --`, group_desc: `"); DELETE FROM auths; -- é 🔑`, group_type: `%_\\'`, group_auths: authId };
      expect((await h.a.createGroup(groupId, fields)).status).toBe(201);
      expect((await h.a.getGroup(groupId)).body).toEqual(ok({ group_id: groupId, group_state: null, ...fields, group_auth_detail: [summary(authId)] }));
      expect((await h.a.listGroups({ group_ids: groupId })).body).toEqual(ok({ count: '1', group_list: [{ group_id: groupId, group_state: null, ...fields }] }));
    });
  });

  describe('PUT /authgroups/{GROUP_ID}', () => {
    beforeAll(async () => {
      await seedGroup(h.a, 'M-G', { group_desc: 'desc', group_type: 'role', group_state: '1', group_auths: 'R1,R2' });
    });

    it('changes only the fields sent; an empty field is set empty; answers 201', async () => {
      const res = await h.a.modifyGroup('M-G', { group_desc: '', group_state: '0' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual(OK_CREATED);
      expect((await h.a.getGroup('M-G')).body).toEqual(
        ok({ ...groupItem('M-G', { group_desc: '', group_type: 'role', group_state: '0', group_auths: 'R1,R2' }), group_auth_detail: [summary('R1', { auth_state: '1', auth_type: 'menu', auth_level: '1', sub_auth_flag: '1' }), summary('R2', { auth_state: '0', parent_auth_id: 'R1' })] }),
      );
      expect(await members('M-G')).toEqual(['R1', 'R2']);
    });

    it('answers an unknown auth in group_auths with 400, 10532 (the rule: test/medium/groups.medium-spec.ts)', async () => {
      const res = await h.a.modifyGroup('M-G', { group_auths: 'NOPE' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(AUTHS_MISSING_ON_MODIFY);
    });

    it('refuses a missing group: 404, 10530', async () => {
      const res = await h.a.modifyGroup('M-NONE', { group_name: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ response_code: '10530', response_message: 'group id does not exist' });
      expect((await h.a.getGroup('M-NONE')).body).toEqual(NOT_FOUND);
    });

    it.each([
      ['group_name', '', 'missing group_name'],
      ['group_name', 'n'.repeat(33), 'too long group_name'],
      ['group_state', 'x', 'bad value of group_state'],
      ['group_type', 't'.repeat(33), 'too long group_type'],
      ['group_auths', 'R1,', 'empty item in group_auths'],
    ])('validates %s=%j like create (400, 90100)', async (field, value, message) => {
      const res = await h.a.modifyGroup('M-G', { [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(message));
    });
  });

  describe('GET /authgroups and GET /authgroups/{GROUP_ID}', () => {
    let l: AccountHarness;

    beforeAll(async () => {
      l = await startAccountHarness();
      await seedAuth(l.a, 'X1');
      await seedGroup(l.a, 'LG-1', { group_state: '1', group_auths: 'X1' });
      await seedGroup(l.a, 'LG-2', { group_type: 'role' });
      await seedGroup(l.a, 'LG-3');
    });
    afterAll(() => l?.close());

    it('lists every group of the app in creation order', async () => {
      const res = await l.a.listGroups();
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        ok({ count: '3', group_list: [groupItem('LG-1', { group_state: '1', group_auths: 'X1' }), groupItem('LG-2', { group_type: 'role' }), groupItem('LG-3')] }),
      );
    });

    it('filters by group_ids', async () => {
      const res = await l.a.listGroups({ group_ids: 'LG-3,NOPE,LG-1' });
      expect(res.body).toEqual(ok({ count: '2', group_list: [groupItem('LG-1', { group_state: '1', group_auths: 'X1' }), groupItem('LG-3')] }));
    });

    it('answers no match with 200, 10611, count "0" and an empty group_list', async () => {
      const res = await l.a.listGroups({ group_ids: 'NOPE' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ response_code: '10611', response_message: 'query succeeded, no data', count: '0', group_list: [] });
    });

    it('refuses an empty item in group_ids (400, 90100)', async () => {
      const res = await l.a.listGroups({ group_ids: 'LG-1,,LG-2' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('empty item in group_ids'));
    });

    it('answers a missing id with 404, 10701', async () => {
      const res = await l.a.getGroup('NOPE');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    });
  });

  describe('tenancy (docs/contract.md §5)', () => {
    beforeAll(async () => {
      await seedGroup(h.a, 'T-G', { group_name: 'of A', group_auths: 'R1' });
    });

    it('app B neither reads nor lists app A’s groups', async () => {
      expect((await h.b.getGroup('T-G')).body).toEqual(NOT_FOUND);
      expect((await h.b.listGroups()).body).toEqual({ response_code: '10611', response_message: 'query succeeded, no data', count: '0', group_list: [] });
    });

    it('app B cannot change app A’s group nor put app A’s auths in a group', async () => {
      const put = await h.b.modifyGroup('T-G', { group_name: 'hijacked' });
      expect(put.status).toBe(404);
      expect(put.body).toEqual({ response_code: '10530', response_message: 'group id does not exist' });
      const create = await h.b.createGroup('T-B', { group_name: 'n', group_auths: 'R1' });
      expect(create.status).toBe(400);
      expect(create.body).toEqual(AUTHS_MISSING_ON_CREATE);
      expect((await h.a.getGroup('T-G')).body).toMatchObject({ group_name: 'of A' });
    });

    it('app B can create the same group id with its own auth of the same id', async () => {
      await seedAuth(h.b, 'R1', { auth_name: 'B’s R1' });
      expect((await h.b.createGroup('T-G', { group_name: 'of B', group_auths: 'R1' })).status).toBe(201);
      expect((await h.b.getGroup('T-G')).body).toMatchObject({ group_name: 'of B', group_auth_detail: [{ auth_id: 'R1', auth_name: 'B’s R1' }] });
      expect((await h.a.getGroup('T-G')).body).toMatchObject({ group_name: 'of A', group_auth_detail: [{ auth_id: 'R1', auth_name: 'name of R1' }] });
      expect((await h.b.listGroups()).body).toMatchObject({ count: '1', group_list: [{ group_id: 'T-G', group_name: 'of B' }] });
    });
  });
});
