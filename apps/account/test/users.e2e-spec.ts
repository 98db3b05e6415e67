import { APP_A, APP_B, type AccountHarness, startAccountHarness } from './support/account-harness';
import { seedAuth, seedGroup } from './support/fixtures';
import { NEW_USER, NO_DATA, OK, seedUser, userBody } from './support/user-fixtures';

/** Apps of their own for the list tests, so that counts are exact. */
const LIST_APP = { appToken: 'app-715700', secret: 'secret-of-the-list-app', aesKey: 'k', aesMode: 'gcm' } as const;
const EMPTY_APP = { appToken: 'app-e3a7', secret: 'secret-of-the-empty-app', aesKey: 'k', aesMode: 'gcm' } as const;

const invalid = (message: string) => ({ response_code: '90100', response_message: message });
const USER_ID = /^[0-9a-f]{16}$/;

/** Every field a registration can carry, each with a distinct value. */
const FULL = {
  org_id: 'ORG-1',
  user_pwd: 'P@ssw0rd!',
  user_name: 'Alice Liddell',
  user_short_name: 'Alice',
  user_type: 'B',
  is_domain_user: '0',
  cert_type: '11',
  cert_id: '91350100M000100Y43',
  cert_id_encrypt: 'c2VjcmV0',
  user_mobile: '13800000000',
  user_mobile_encrypt: 'bW9iaWxl',
  user_auths: 'U-A1,U-A2',
  user_auth_groups: 'U-G1',
  user_extends: '{"dept":"R&D","level":3}',
};

describe('users (interfaces 200-203)', () => {
  let h: AccountHarness;
  /** Every response body of this file, checked for passwords at the end. */
  const bodies: unknown[] = [];
  const seen = <T extends { body: unknown }>(res: T): T => {
    bodies.push(res.body);
    return res;
  };

  beforeAll(async () => {
    // Cheap hashes: this file is about the resource, not the hashing cost.
    h = await startAccountHarness({ env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }, apps: [LIST_APP, EMPTY_APP] });
    await seedAuth(h.a, 'U-A1', { auth_state: '1' });
    await seedAuth(h.a, 'U-A2', { auth_state: '1' });
    await seedGroup(h.a, 'U-G1', { group_auths: 'U-A1' });
    await seedAuth(h.b, 'U-B1', { auth_state: '1' });
    await seedGroup(h.b, 'U-BG', { group_auths: 'U-B1' });
  });
  afterAll(() => h?.close());

  async function storedRow(appToken: string, loginId: string) {
    const { rows } = await h.db.query(`SELECT * FROM users WHERE app_token = $1 AND user_login_id = $2`, [appToken, loginId]);
    return rows[0] as Record<string, unknown> | undefined;
  }

  describe('POST /users/{USER_LOGIN_ID}', () => {
    it('registers a user with every field and answers 201 with the assigned user_id', async () => {
      const res = seen(await h.a.registerUser('full', FULL));
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ ...OK, user_id: expect.stringMatching(USER_ID) });
      const userId = (res.body as { user_id: string }).user_id;

      const got = seen(await h.a.getUser('full'));
      expect(got.status).toBe(200);
      const { user_pwd: _pwd, ...shown } = FULL;
      expect(got.body).toEqual({ ...OK, ...userBody('full', userId, { ...shown }) });
    });

    it('stores the password only as an argon2id hash', async () => {
      const row = await storedRow(APP_A.appToken, 'full');
      expect(row?.user_pwd_hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
      expect(JSON.stringify(row)).not.toContain(FULL.user_pwd);
      const links = await h.db.query(`SELECT auth_id FROM user_auth_links WHERE user_login_id = 'full' ORDER BY auth_id`);
      expect(links.rows).toEqual([{ auth_id: 'U-A1' }, { auth_id: 'U-A2' }]);
    });

    it('registers with the required fields only; unset fields are null, is_domain_user 0', async () => {
      const res = seen(await h.a.registerUser('minimal', NEW_USER));
      expect(res.status).toBe(201);
      const userId = (res.body as { user_id: string }).user_id;
      expect(userId).toMatch(USER_ID);
      const got = seen(await h.a.getUser('minimal'));
      expect(got.body).toEqual({ ...OK, ...userBody('minimal', userId) });
    });

    it('registers a domain account without a password, as multipart too', async () => {
      const res = seen(await h.a.registerUser('domain', { user_name: 'D', user_type: 'C', is_domain_user: '1' }, { multipart: true }));
      expect(res.status).toBe(201);
      const got = seen(await h.a.getUser('domain'));
      expect(got.body).toMatchObject({ ...OK, user_login_id: 'domain', user_name: 'D', is_domain_user: '1', user_pwd: null });
      expect((await storedRow(APP_A.appToken, 'domain'))?.user_pwd_hash).toBeNull();
    });

    it('stores fields sent empty as empty', async () => {
      const fields = {
        org_id: '',
        user_short_name: '',
        cert_type: '',
        cert_id: '',
        user_auths: '',
        user_auth_groups: '',
        user_extends: '',
      };
      const userId = await seedUser(h.a, 'empties', fields);
      expect(seen(await h.a.getUser('empties')).body).toEqual({ ...OK, ...userBody('empties', userId, fields) });
    });

    it('answers 409 20020 when the login id exists, and changes nothing', async () => {
      await seedUser(h.a, 'dup', { user_name: 'First' });
      const res = seen(await h.a.registerUser('dup', { ...NEW_USER, user_name: 'Second' }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ response_code: '20020', response_message: 'login id already exists' });
      expect(seen(await h.a.getUser('dup')).body).toMatchObject({ user_name: 'First' });
    });

    it('lets exactly one of 50 concurrent registrations of a login id win; the others get 409 20020', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => h.a.registerUser('race', { ...NEW_USER, user_name: `racer ${i}` })),
      );
      results.forEach(seen);
      const created = results.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      expect(created[0]!.body).toEqual({ ...OK, user_id: expect.stringMatching(USER_ID) });
      const others = results.filter((r) => r.status !== 201);
      expect(others).toHaveLength(49);
      for (const r of others) {
        expect(r.status).toBe(409);
        expect(r.body).toEqual({ response_code: '20020', response_message: 'login id already exists' });
      }
      const { rows } = await h.db.query(`SELECT user_id FROM users WHERE user_login_id = 'race'`);
      expect(rows).toEqual([{ user_id: (created[0]!.body as { user_id: string }).user_id }]);
    });

    it.each([
      [{ user_type: 'C', user_pwd: 'x' }, 'missing user_name'],
      [{ user_name: 'A', user_pwd: 'x' }, 'missing user_type'],
      [{ user_name: 'A', user_type: 'C' }, 'missing user_pwd'],
      [{ user_name: 'A', user_type: 'C', is_domain_user: '0', user_pwd: '' }, 'missing user_pwd'],
      [{ ...NEW_USER, user_type: 'P' }, 'bad value of user_type'],
      [{ ...NEW_USER, is_domain_user: 'Y' }, 'bad value of is_domain_user'],
      [{ ...NEW_USER, cert_type: '12' }, 'bad value of cert_type'],
      [{ ...NEW_USER, user_extends: '["not","an","object"]' }, 'invalid user_extends'],
      [{ ...NEW_USER, user_extends: 'plain text' }, 'invalid user_extends'],
      [{ ...NEW_USER, user_auths: 'U-A1,,U-A2' }, 'invalid user_auths'],
      [{ ...NEW_USER, user_auths: 'U-A1,NOPE' }, 'unknown item in user_auths'],
      [{ ...NEW_USER, user_auths: 'U-B1' }, 'unknown item in user_auths'],
      [{ ...NEW_USER, user_auth_groups: 'NOPE' }, 'unknown item in user_auth_groups'],
      [{ ...NEW_USER, user_auth_groups: 'U-BG' }, 'unknown item in user_auth_groups'],
      [{ ...NEW_USER, user_auths: 'NOPE', user_auth_groups: 'NOPE' }, 'unknown item in user_auths'],
      // Longer than any auth / group id: no 500 from the link's column (found by fuzzing).
      [{ ...NEW_USER, user_auths: 'U-A1,' + 'a'.repeat(65) }, 'unknown item in user_auths'],
      [{ ...NEW_USER, user_auth_groups: 'G'.repeat(65) }, 'unknown item in user_auth_groups'],
    ])('refuses %j with 400 90100: %s', async (fields, message) => {
      const res = seen(await h.a.registerUser('refused', fields));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(message));
      expect(await storedRow(APP_A.appToken, 'refused')).toBeUndefined();
    });

    const limits: [string, number][] = [
      ['org_id', 16],
      ['user_pwd', 64],
      ['user_name', 64],
      ['user_short_name', 32],
      ['cert_id', 32],
      ['cert_id_encrypt', 16],
      ['user_mobile', 16],
      ['user_mobile_encrypt', 16],
    ];
    it.each(limits)('takes %s at %i characters and refuses one more', async (field, max) => {
      const loginId = `len-${field}`;
      const at = '字'.repeat(max - 1) + 'x';
      const ok = seen(await h.a.registerUser(loginId, { ...NEW_USER, [field]: at }));
      expect(ok.status).toBe(201);
      if (field !== 'user_pwd') expect(seen(await h.a.getUser(loginId)).body).toMatchObject({ [field]: at });
      const over = seen(await h.a.registerUser(`${loginId}-over`, { ...NEW_USER, [field]: `${at}y` }));
      expect(over.status).toBe(400);
      expect(over.body).toEqual(invalid(`too long ${field}`));
    });

    it('takes user_auths, user_auth_groups and user_extends at 512 characters and refuses one more', async () => {
      // Lists of real ids; items are trimmed, so trailing spaces pad them to the limit.
      const authList = `${'U-A1,'.repeat(101)}U-A2   `;
      const groupList = `${'U-G1,'.repeat(101)}U-G1   `;
      const extendsText = `{"k":"${'é'.repeat(504)}"}`;
      for (const text of [authList, groupList, extendsText]) expect(text).toHaveLength(512);

      const res = seen(
        await h.a.registerUser('len-lists', { ...NEW_USER, user_auths: authList, user_auth_groups: groupList, user_extends: extendsText }),
      );
      expect(res.status).toBe(201);
      expect(seen(await h.a.getUser('len-lists')).body).toMatchObject({
        user_auths: authList,
        user_auth_groups: groupList,
        user_extends: extendsText,
      });

      for (const [field, value] of [
        ['user_auths', `U${authList}`],
        ['user_auth_groups', `U${groupList}`],
        ['user_extends', `{"k":"${'é'.repeat(505)}"}`],
      ] as const) {
        const over = seen(await h.a.registerUser(`len-over-${field}`, { ...NEW_USER, [field]: value }));
        expect(over.status).toBe(400);
        expect(over.body).toEqual(invalid(`too long ${field}`));
      }
    });

    it('takes a user_login_id of 64 characters and refuses 65', async () => {
      const id = 'L'.repeat(63) + '用';
      const res = seen(await h.a.registerUser(id, NEW_USER));
      expect(res.status).toBe(201);
      expect(seen(await h.a.getUser(id)).body).toMatchObject({ ...OK, user_login_id: id });
      const over = seen(await h.a.registerUser(`${id}x`, NEW_USER));
      expect(over.status).toBe(400);
      expect(over.body).toEqual(invalid('too long user_login_id'));
    });

    it('keeps SQL metacharacters and unicode unchanged', async () => {
      const id = `o'brien"; DROP TABLE users;--%_\\ 用户🚀`;
      const fields = {
        ...NEW_USER,
        user_name: `Robert'); DROP TABLE users;--`,
        user_short_name: `% _ \\ ' " ;`,
        org_id: `o'rg%_`,
        cert_id: 'Ünïcødé 证件 🚀',
        user_extends: JSON.stringify({ q: `' OR 1=1 --`, emoji: '🚀', zh: '扩展' }),
      };
      const userId = await seedUser(h.a, id, fields);
      const { user_pwd: _pwd, ...shown } = fields;
      expect(seen(await h.a.getUser(id)).body).toEqual({ ...OK, ...userBody(id, userId, shown) });
      const listed = seen(await h.a.listUsers({ user_login_ids: id, org_id: fields.org_id }));
      expect(listed.body).toMatchObject({ ...OK, count: '1', list: [{ user_login_id: id, user_id: userId }] });
      expect(seen(await h.a.listUsers({ org_id: `o'rg%` })).body).toMatchObject({ response_code: '20201', count: '0' });
      expect(seen(await h.a.login(id, NEW_USER.user_pwd)).status).toBe(200);
    });
  });

  describe('PUT /users/{USER_LOGIN_ID}', () => {
    it('changes only the fields sent: omitted keep their value, empty ones become empty', async () => {
      const userId = await seedUser(h.a, 'modify-me', FULL);
      const res = seen(await h.a.modifyUser('modify-me', { user_name: 'Renamed', org_id: '', user_auths: 'U-A2', user_extends: '{}' }));
      expect(res.status).toBe(201);
      expect(res.body).toEqual(OK);
      const { user_pwd: _pwd, ...shown } = FULL;
      expect(seen(await h.a.getUser('modify-me')).body).toEqual({
        ...OK,
        ...userBody('modify-me', userId, { ...shown, user_name: 'Renamed', org_id: '', user_auths: 'U-A2', user_extends: '{}' }),
      });
      const links = await h.db.query(`SELECT auth_id FROM user_auth_links WHERE user_login_id = 'modify-me'`);
      expect(links.rows).toEqual([{ auth_id: 'U-A2' }]);
      const groups = await h.db.query(`SELECT group_id FROM user_group_links WHERE user_login_id = 'modify-me'`);
      expect(groups.rows).toEqual([{ group_id: 'U-G1' }]);
      // A list kept in part, grown and emptied: the links follow the lists exactly.
      expect(seen(await h.a.modifyUser('modify-me', { user_auths: 'U-A1,U-A2', user_auth_groups: '' })).status).toBe(201);
      const relinked = await h.db.query(`SELECT auth_id FROM user_auth_links WHERE user_login_id = 'modify-me' ORDER BY auth_id`);
      expect(relinked.rows).toEqual([{ auth_id: 'U-A1' }, { auth_id: 'U-A2' }]);
      const ungrouped = await h.db.query(`SELECT group_id FROM user_group_links WHERE user_login_id = 'modify-me'`);
      expect(ungrouped.rows).toEqual([]);
    });

    it('accepts an empty modification and keeps everything', async () => {
      const userId = await seedUser(h.a, 'noop', { org_id: 'O' });
      expect(seen(await h.a.modifyUser('noop', {})).status).toBe(201);
      expect(seen(await h.a.getUser('noop')).body).toEqual({ ...OK, ...userBody('noop', userId, { org_id: 'O' }) });
    });

    it('changes the password: the new one logs in, the old one no longer does', async () => {
      await seedUser(h.a, 'new-pwd');
      expect(seen(await h.a.modifyUser('new-pwd', { user_pwd: 'N3w-secret' })).status).toBe(201);
      expect(seen(await h.a.login('new-pwd', 'N3w-secret')).status).toBe(200);
      expect(seen(await h.a.login('new-pwd', NEW_USER.user_pwd)).body).toMatchObject({ response_code: '20441' });
    });

    it('refuses is_domain_user, which cannot be modified (CONTRACT §13), and changes nothing', async () => {
      await seedUser(h.a, 'stay-ordinary');
      const res = seen(await h.a.modifyUser('stay-ordinary', { is_domain_user: '1', user_name: 'Changed' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('unknown field is_domain_user'));
      expect(seen(await h.a.getUser('stay-ordinary')).body).toMatchObject({ is_domain_user: '0', user_name: 'Alice' });
    });

    it('refuses user_pwd for a domain account (register and modify), and an empty one for an ordinary one', async () => {
      const domainPwd = { response_code: '90100', response_message: 'domain user takes no user_pwd' };
      for (const user_pwd of ['local', '']) {
        const res = seen(await h.a.registerUser('domain-pwd', { user_name: 'D', user_type: 'C', is_domain_user: '1', user_pwd }));
        expect(res).toMatchObject({ status: 400, body: domainPwd });
      }
      expect(await storedRow(APP_A.appToken, 'domain-pwd')).toBeUndefined();
      await seedUser(h.a, 'domain-pwd', { is_domain_user: '1', user_pwd: undefined });
      for (const user_pwd of ['local', ''])
        expect(seen(await h.a.modifyUser('domain-pwd', { user_pwd }))).toMatchObject({ status: 400, body: domainPwd });
      expect((await storedRow(APP_A.appToken, 'domain-pwd'))?.user_pwd_hash).toBeNull();
      await seedUser(h.a, 'ordinary-pwd');
      const res = seen(await h.a.modifyUser('ordinary-pwd', { user_pwd: '' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('missing user_pwd'));
    });

    it('answers 404 20130 for an unknown login id', async () => {
      const res = seen(await h.a.modifyUser('nobody', { user_name: 'X' }));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ response_code: '20130', response_message: 'login id does not exist' });
      expect(await storedRow(APP_A.appToken, 'nobody')).toBeUndefined();
    });

    it.each([
      [{ user_name: '' }, 'missing user_name'],
      [{ user_type: '' }, 'missing user_type'],
      [{ user_type: 'Z' }, 'bad value of user_type'],
      [{ cert_type: '1' }, 'bad value of cert_type'],
      [{ user_extends: '42' }, 'invalid user_extends'],
      [{ user_mobile: '1'.repeat(17) }, 'too long user_mobile'],
      [{ user_auths: 'U-A1,MISSING' }, 'unknown item in user_auths'],
      [{ user_name: 'Y', user_auths: 'a'.repeat(17) }, 'unknown item in user_auths'],
      [{ user_auth_groups: 'U-BG' }, 'unknown item in user_auth_groups'],
    ])('refuses %j with 400 90100 (%s) and keeps the user unchanged', async (fields, message) => {
      const loginId = `bad-put-${Object.keys(fields)[0]}-${message.length}`;
      const userId = await seedUser(h.a, loginId, { user_auths: 'U-A1' });
      const res = seen(await h.a.modifyUser(loginId, fields));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(message));
      expect(seen(await h.a.getUser(loginId)).body).toEqual({ ...OK, ...userBody(loginId, userId, { user_auths: 'U-A1' }) });
    });
  });

  describe('GET /users/{USER_LOGIN_ID}', () => {
    it('answers 404 20301 for an unknown login id', async () => {
      const res = seen(await h.a.getUser('ghost'));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ response_code: '20301', response_message: NO_DATA });
    });
  });

  describe('tenancy', () => {
    it('hides app A users from app B: no read, no list, no change, no login', async () => {
      const userId = await seedUser(h.a, 'tenant-a', { org_id: 'TEN' });
      expect(seen(await h.b.getUser('tenant-a'))).toMatchObject({ status: 404, body: { response_code: '20301' } });
      expect(seen(await h.b.modifyUser('tenant-a', { user_name: 'hijack' }))).toMatchObject({
        status: 404,
        body: { response_code: '20130' },
      });
      expect(seen(await h.b.listUsers({ org_id: 'TEN' }))).toMatchObject({ status: 200, body: { response_code: '20201', count: '0' } });
      expect(seen(await h.b.login('tenant-a', NEW_USER.user_pwd))).toMatchObject({ status: 401, body: { response_code: '20441' } });
      expect(seen(await h.a.getUser('tenant-a')).body).toEqual({ ...OK, ...userBody('tenant-a', userId, { org_id: 'TEN' }) });
    });

    it('allows the same login id in both apps, each its own user', async () => {
      const a = await seedUser(h.a, 'shared-id', { user_name: 'in A' });
      const b = await seedUser(h.b, 'shared-id', { user_name: 'in B', user_auths: 'U-B1', user_auth_groups: 'U-BG' });
      expect(seen(await h.a.getUser('shared-id')).body).toMatchObject({ user_id: a, user_name: 'in A', user_auths: null });
      expect(seen(await h.b.getUser('shared-id')).body).toMatchObject({ user_id: b, user_name: 'in B', user_auths: 'U-B1' });
      expect(seen(await h.b.modifyUser('shared-id', { user_name: 'B again' })).status).toBe(201);
      expect(seen(await h.a.getUser('shared-id')).body).toMatchObject({ user_name: 'in A' });
    });
  });

  describe('GET /users', () => {
    let list: AccountHarness['a'];
    const ids = Array.from({ length: 25 }, (_, i) => `p-${String(i).padStart(2, '0')}`);
    const userIds: string[] = [];

    beforeAll(async () => {
      list = h.client(LIST_APP);
      // Registered out of name order: the list is in creation order.
      for (const id of [...ids].reverse()) userIds.unshift(await seedUser(list, id, { org_id: Number(id.slice(2)) % 2 ? 'ODD' : 'EVEN' }));
    });

    const loginIdsOf = (body: unknown) => (body as { list: { user_login_id: string }[] }).list.map((u) => u.user_login_id);
    const created = () => [...ids].reverse();

    it('pages in creation order, 20 by default, count = all matches, the array under user_list and list', async () => {
      const res = seen(await list.listUsers());
      expect(res.status).toBe(200);
      const body = res.body as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['count', 'list', 'response_code', 'response_message', 'user_list']);
      expect(body).toMatchObject({ ...OK, count: '25' });
      expect(body.user_list).toEqual(body.list);
      expect(loginIdsOf(body)).toEqual(created().slice(0, 20));
      expect((body.list as unknown[])[0]).toEqual(userBody('p-24', userIds[24]!, { org_id: 'EVEN' }));
    });

    it('serves page_number and page_size', async () => {
      const second = seen(await list.listUsers({ page_number: '2', page_size: '10' }));
      expect(second.body).toMatchObject({ ...OK, count: '25' });
      expect(loginIdsOf(second.body)).toEqual(created().slice(10, 20));
      const last = seen(await list.listUsers({ page_number: '3', page_size: '10' }));
      expect(loginIdsOf(last.body)).toEqual(created().slice(20));
      const all = seen(await list.listUsers({ page_size: '1000' }));
      expect(loginIdsOf(all.body)).toEqual(created());
      const one = seen(await list.listUsers({ page_number: '0025', page_size: '001' }));
      expect(loginIdsOf(one.body)).toEqual([created()[24]]);
    });

    it('answers a page past the end with 404 20201, the real count and empty arrays', async () => {
      for (const query of [
        { page_number: '4', page_size: '10' },
        { page_number: '2', page_size: '1000' },
        { org_id: 'ODD', page_number: '3', page_size: '10' },
      ]) {
        const res = seen(await list.listUsers(query));
        expect(res.status).toBe(404);
        const count = query.org_id ? '12' : '25';
        expect(res.body).toEqual({ response_code: '20201', response_message: NO_DATA, count, user_list: [], list: [] });
      }
    });

    it('filters by user_login_ids and org_id, counting the matches', async () => {
      const some = seen(await list.listUsers({ user_login_ids: 'p-03,p-01, p-02,unknown' }));
      expect(some.body).toMatchObject({ ...OK, count: '3' });
      expect(loginIdsOf(some.body)).toEqual(['p-03', 'p-02', 'p-01']);
      const odd = seen(await list.listUsers({ org_id: 'ODD', page_size: '5' }));
      expect(odd.body).toMatchObject({ ...OK, count: '12' });
      expect(loginIdsOf(odd.body)).toEqual(['p-23', 'p-21', 'p-19', 'p-17', 'p-15']);
      const both = seen(await list.listUsers({ org_id: 'EVEN', user_login_ids: 'p-01,p-02' }));
      expect(loginIdsOf(both.body)).toEqual(['p-02']);
    });

    it('answers 200 20201 with count "0" and empty arrays when nothing matches', async () => {
      for (const query of [{ org_id: 'NONE' }, { user_login_ids: 'x,y' }]) {
        const res = seen(await list.listUsers(query));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ response_code: '20201', response_message: NO_DATA, count: '0', user_list: [], list: [] });
      }
      const empty = h.client(EMPTY_APP);
      expect(seen(await empty.listUsers()).body).toEqual({
        response_code: '20201',
        response_message: NO_DATA,
        count: '0',
        user_list: [],
        list: [],
      });
    });

    it.each([
      [{ page_number: '0' }, 'invalid page_number'],
      [{ page_number: '-1' }, 'invalid page_number'],
      [{ page_number: 'one' }, 'invalid page_number'],
      [{ page_number: '1e3' }, 'invalid page_number'],
      [{ page_number: '123456789' }, 'too long page_number'],
      [{ page_number: '' }, 'missing page_number'],
      [{ page_size: '0' }, 'invalid page_size'],
      [{ page_size: '1001' }, 'invalid page_size'],
      [{ page_size: '20.0' }, 'invalid page_size'],
      [{ page_size: '' }, 'missing page_size'],
      [{ user_login_ids: 'a,,b' }, 'invalid user_login_ids'],
      [{ org_id: 'O'.repeat(17) }, 'too long org_id'],
    ])('refuses %j with 400 90100: %s', async (query, message) => {
      const res = seen(await list.listUsers(query));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(message));
    });

    it('keeps the count right across apps (app counters)', async () => {
      const { rows } = await h.db.query(`SELECT app_token, total::int FROM user_counts ORDER BY app_token`);
      const actual = await h.db.query(`SELECT app_token, count(*)::int AS total FROM users GROUP BY app_token ORDER BY app_token`);
      expect(rows).toEqual(actual.rows);
      expect(rows.find((r: { app_token: string }) => r.app_token === 'app-715700')).toEqual({ app_token: 'app-715700', total: 25 });
      expect(rows.find((r: { app_token: string }) => r.app_token === APP_B.appToken)).toEqual({ app_token: APP_B.appToken, total: 1 });
    });
  });

  it('never shows a password or a hash in any answer', () => {
    expect(bodies.length).toBeGreaterThan(100);
    const text = JSON.stringify(bodies);
    for (const secret of [FULL.user_pwd, 'N3w-secret', '$argon2', 'user_pwd_hash']) expect(text).not.toContain(secret);
    for (const body of bodies as Record<string, unknown>[]) {
      for (const user of [body, ...((body?.list as Record<string, unknown>[] | undefined) ?? [])]) {
        if (user && 'user_pwd' in user) expect([user.user_pwd, user.user_pwd_encrypt]).toEqual([null, null]);
      }
    }
  });
});
