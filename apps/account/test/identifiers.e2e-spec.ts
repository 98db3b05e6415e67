import { type AccountHarness, startAccountHarness } from './support/account-harness';
import { seedAuth, seedGroup } from './support/fixtures';
import { NEW_USER, seedUser } from './support/user-fixtures';

const invalid = (message: string) => ({ response_code: '90100', response_message: message });

/** Apps of their own, so that their auth numbers start from nothing. */
const SEQ_APP_1 = { appToken: 'app-5e91', secret: 'secret-of-seq-app-one', aesKey: 'k', aesMode: 'gcm' } as const;
const SEQ_APP_2 = { appToken: 'app-5e92', secret: 'secret-of-seq-app-two', aesKey: 'k', aesMode: 'gcm' } as const;

/** Ids that look like `admin` / `josé` but are other strings. */
const LOOKALIKES: [string, string][] = [
  ['a zero-width space', 'admin\u200b'],
  ['a right-to-left override', 'admin\u202e'],
  ['a word joiner', 'ad\u2060min'],
  ['full-width letters', 'ａｄｍｉｎ'],
  ['a decomposed accent (NFD)', 'jose\u0301'],
];

describe('identifiers and stored text', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }, apps: [SEQ_APP_1, SEQ_APP_2] });
    await seedUser(h.a, 'admin');
    await seedUser(h.a, 'jos\u00e9');
    await seedAuth(h.a, 'ID-A1');
    await seedGroup(h.a, 'ID-G1');
  });
  afterAll(() => h?.close());

  async function storedLoginIds(): Promise<string[]> {
    const { rows } = await h.db.query(`SELECT user_login_id FROM users WHERE app_token = $1 ORDER BY user_seq_id`, [h.a.options.appToken]);
    return (rows as { user_login_id: string }[]).map((r) => r.user_login_id);
  }

  describe('ids that differ only invisibly from another are refused (one visible id is one account)', () => {
    it.each(LOOKALIKES)('register with %s: 400 90100 naming user_login_id, nothing stored', async (_, id) => {
      const res = await h.a.registerUser(id, NEW_USER);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid('invalid user_login_id') });
      expect(await storedLoginIds()).toEqual(['admin', 'jos\u00e9']);
    });

    it.each(LOOKALIKES)('read, modify, login and permissions of a login id with %s: 400 90100', async (_, id) => {
      for (const res of [
        await h.a.getUser(id),
        await h.a.modifyUser(id, { user_name: 'x' }),
        await h.a.login(id, NEW_USER.user_pwd),
        await h.a.userAuths(id),
      ]) {
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid('invalid user_login_id') });
      }
    });

    it.each(LOOKALIKES)('auth and group ids with %s: 400 90100 naming the id', async (_, id) => {
      const auth = await h.a.createAuth(id.slice(0, 16), { auth_name: 'x' });
      expect({ status: auth.status, body: auth.body }).toEqual({ status: 400, body: invalid('invalid auth_id') });
      const group = await h.a.createGroup(id, { group_name: 'x' });
      expect({ status: group.status, body: group.body }).toEqual({ status: 400, body: invalid('invalid group_id') });
      const read = await h.a.getAuth(id.slice(0, 16));
      expect({ status: read.status, body: read.body }).toEqual({ status: 400, body: invalid('invalid auth_id') });
    });

    it('refuses such ids in fields that name records and in id lists, naming the field', async () => {
      const cases: [Promise<{ status: number; body: unknown }>, string][] = [
        [h.a.createAuth('ID-A2', { auth_name: 'x', parent_auth_id: 'ID-A1\u200b' }), 'parent_auth_id'],
        [h.a.modifyAuth('ID-A1', { parent_auth_id: 'ＩＤ-A1' }), 'parent_auth_id'],
        [h.a.createGroup('ID-G2', { group_name: 'x', group_auths: 'ID-A1,ID-A1\u202e' }), 'group_auths'],
        [h.a.registerUser('carol', { ...NEW_USER, user_auths: 'ID-A1\ufeff' }), 'user_auths'],
        [h.a.registerUser('carol', { ...NEW_USER, user_auth_groups: 'ID-G1\u200c' }), 'user_auth_groups'],
        [h.a.registerUser('carol', { ...NEW_USER, org_id: 'ORG\u00ad1' }), 'org_id'],
        [h.a.listUsers({ user_login_ids: 'admin,admin\u200b' }), 'user_login_ids'],
        [h.a.listUsers({ org_id: 'ＯＲＧ' }), 'org_id'],
        [h.a.listAuths({ auth_ids: 'ID-A1\u200b' }), 'auth_ids'],
        [h.a.listAuths({ parent_auth_id: 'ID-A1\u200b' }), 'parent_auth_id'],
        [h.a.listGroups({ group_ids: 'ID-G1\u2060' }), 'group_ids'],
      ];
      for (const [request, field] of cases) {
        const res = await request;
        expect({ field, status: res.status, body: res.body }).toEqual({ field, status: 400, body: invalid(`invalid ${field}`) });
      }
      expect((await h.db.query(`SELECT 1 FROM users WHERE user_login_id = 'carol'`)).rowCount).toBe(0);
    });

    it('still takes ids in NFKC without format characters: accents, CJK, emoji', async () => {
      for (const id of ['jos\u00e9-2', '用户', 'o\u2019brien 🚀']) {
        const res = await h.a.registerUser(id, NEW_USER);
        expect({ id, status: res.status }).toEqual({ id, status: 201 });
        expect((await h.a.getUser(id)).status).toBe(200);
      }
    });
  });

  describe('auth_seq_id is numbered per app', () => {
    const seqOf = async (client: AccountHarness['a']) => {
      const res = await client.listAuths();
      return (res.body as { list: { auth_id: string; auth_seq_id: string }[] }).list.map((a) => [a.auth_id, a.auth_seq_id]);
    };

    it('does not reveal how many auths other apps created', async () => {
      const one = h.client(SEQ_APP_1);
      const two = h.client(SEQ_APP_2);
      await seedAuth(one, 'S1');
      await seedAuth(two, 'T1');
      await seedAuth(one, 'S2');
      await seedAuth(h.a, 'ID-OTHER');
      await seedAuth(two, 'T2');
      await seedAuth(one, 'S3');
      expect(await seqOf(one)).toEqual([
        ['S1', '1'],
        ['S2', '2'],
        ['S3', '3'],
      ]);
      expect(await seqOf(two)).toEqual([
        ['T1', '1'],
        ['T2', '2'],
      ]);
    });

    it('gives concurrent creates of one app distinct numbers, without gaps after a refused create', async () => {
      const two = h.client(SEQ_APP_2);
      const refused = await two.createAuth('T-BAD', { auth_name: 'x', parent_auth_id: 'T-MISSING' });
      expect(refused.status).toBe(400);
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => two.createAuth(`T-C${i}`, { auth_name: `c${i}` })));
      expect(results.map((r) => r.status)).toEqual(Array(30).fill(201));
      const numbers = (await seqOf(two)).map(([, seq]) => Number(seq));
      expect(numbers).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    });
  });

  describe('user_extends', () => {
    it.each([
      ['duplicate keys', '{"role":"user","role":"admin"}'],
      ['a duplicate key deeper down', '{"a":{"b":1,"b":2}}'],
      ['a number that is not finite', '{"quota":1e999999}'],
      ['250 levels of nesting', `{"a":${'['.repeat(249)}${']'.repeat(249)}}`],
    ])('with %s is refused with 400 90100 naming user_extends, on register and modify', async (_, user_extends) => {
      const reg = await h.a.registerUser('dave', { ...NEW_USER, user_extends });
      expect({ status: reg.status, body: reg.body }).toEqual({ status: 400, body: invalid('invalid user_extends') });
      const mod = await h.a.modifyUser('admin', { user_extends });
      expect({ status: mod.status, body: mod.body }).toEqual({ status: 400, body: invalid('invalid user_extends') });
      const { rows } = await h.db.query(`SELECT user_extends FROM users WHERE user_login_id = 'admin'`);
      expect(rows).toEqual([{ user_extends: null }]);
    });

    it('takes 32 levels of nesting and stores the text as sent', async () => {
      const user_extends = `${'{"a":'.repeat(31)}{}${'}'.repeat(31)}`;
      expect((await h.a.modifyUser('admin', { user_extends })).status).toBe(201);
      expect(((await h.a.getUser('admin')).body as { user_extends: string }).user_extends).toBe(user_extends);
    });
  });
});
