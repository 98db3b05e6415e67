import { APP_A, APP_B, type AccountHarness, startAccountHarness } from './support/account-harness';
import { TIMESTAMP, seedAuth, seedAuths } from './support/fixtures';

const OK_CREATED = { response_code: '90000', response_message: 'success' };
const ok = (fields: Record<string, unknown>) => ({ response_code: '90000', response_message: 'success', ...fields });
const invalid = (message: string) => ({ response_code: '90100', response_message: message });

/** Every Auth field, unset ones null. */
function authView(authId: string, fields: Record<string, string | null> = {}) {
  return {
    auth_id: authId,
    auth_name: `name of ${authId}`,
    auth_desc: null,
    auth_state: null,
    auth_type: null,
    auth_level: null,
    parent_auth_id: '',
    sub_auth_flag: null,
    ...fields,
  };
}

describe('auths (interfaces 100-103)', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness();
  });
  afterAll(() => h?.close());

  /** What PostgreSQL stored for an auth, times formatted in UTC. */
  async function stored(appToken: string, authId: string) {
    const { rows } = await h.db.query(
      `SELECT auth_seq_id::text, to_char(create_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS create_time,
              to_char(update_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS update_time
         FROM auths WHERE app_token = $1 AND auth_id = $2`,
      [appToken, authId],
    );
    return rows[0] as { auth_seq_id: string; create_time: string; update_time: string } | undefined;
  }

  describe('POST /auths/{AUTH_ID}', () => {
    it('creates an auth with every field and answers 201 with the common parameters only', async () => {
      await seedAuth(h.a, 'C-PARENT');
      const res = await h.a.createAuth('C-FULL', {
        auth_name: 'Orders',
        auth_desc: 'Read and write orders',
        auth_state: '1',
        auth_type: 'menu',
        auth_level: '2',
        parent_auth_id: 'C-PARENT',
        sub_auth_flag: '0',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual(OK_CREATED);
      const got = await h.a.getAuth('C-FULL');
      expect(got.status).toBe(200);
      expect(got.body).toEqual(
        ok({
          auth_id: 'C-FULL',
          auth_name: 'Orders',
          auth_desc: 'Read and write orders',
          auth_state: '1',
          auth_type: 'menu',
          auth_level: '2',
          parent_auth_id: 'C-PARENT',
          sub_auth_flag: '0',
        }),
      );
    });

    it('creates an auth with the name only; the other fields read back as null, and parent_auth_id as "" (a root, CONTRACT §7)', async () => {
      const res = await h.a.createAuth('C-MIN', { auth_name: 'name of C-MIN' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual(OK_CREATED);
      expect((await h.a.getAuth('C-MIN')).body).toEqual(ok(authView('C-MIN')));
    });

    it('stores empty optional fields as empty strings ("no parent" included)', async () => {
      const res = await h.a.createAuth('C-EMPTY', { auth_name: 'n', auth_desc: '', auth_state: '', auth_type: '', auth_level: '', parent_auth_id: '', sub_auth_flag: '' });
      expect(res.status).toBe(201);
      expect((await h.a.getAuth('C-EMPTY')).body).toEqual(
        ok({ auth_id: 'C-EMPTY', auth_name: 'n', auth_desc: '', auth_state: '', auth_type: '', auth_level: '', parent_auth_id: '', sub_auth_flag: '' }),
      );
    });

    it('accepts a multipart form as well as a urlencoded one', async () => {
      const res = await h.a.createAuth('C-MULTI', { auth_name: 'Multipart', auth_state: '0' }, { multipart: true });
      expect(res.status).toBe(201);
      expect(res.body).toEqual(OK_CREATED);
      expect((await h.a.getAuth('C-MULTI')).body).toEqual(ok(authView('C-MULTI', { auth_name: 'Multipart', auth_state: '0' })));
    });

    it('requires auth_name (400, 90100)', async () => {
      for (const fields of [{}, { auth_name: '' }, { auth_desc: 'no name' }]) {
        const res = await h.a.createAuth('C-NONAME', fields);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalid('missing auth_name'));
      }
      expect((await h.a.getAuth('C-NONAME')).status).toBe(404);
    });

    it('refuses an existing id: 409, 10010', async () => {
      await seedAuth(h.a, 'C-DUP', { auth_name: 'first' });
      const res = await h.a.createAuth('C-DUP', { auth_name: 'second' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ response_code: '10010', response_message: 'auth id already exists' });
      expect((await h.a.getAuth('C-DUP')).body).toMatchObject({ auth_name: 'first' });
    });

    it('refuses a parent that does not exist: 400, 10021, and creates nothing', async () => {
      const res = await h.a.createAuth('C-ORPHAN', { auth_name: 'orphan', parent_auth_id: 'NO-SUCH' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ response_code: '10021', response_message: 'parent auth does not exist' });
      expect((await h.a.getAuth('C-ORPHAN')).status).toBe(404);
    });

    it('refuses an auth created with itself as parent: 400, 10021 (the parent does not exist yet)', async () => {
      const res = await h.a.createAuth('C-SELF', { auth_name: 'self', parent_auth_id: 'C-SELF' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ response_code: '10021', response_message: 'parent auth does not exist' });
      expect((await h.a.getAuth('C-SELF')).status).toBe(404);
    });

    it.each([
      ['auth_state', '2', 'bad value of auth_state'],
      ['auth_state', '10', 'bad value of auth_state'],
      ['sub_auth_flag', 'y', 'bad value of sub_auth_flag'],
      ['auth_level', 'a', 'invalid auth_level'],
      ['auth_level', '-1', 'invalid auth_level'],
      ['auth_level', '1.5', 'too long auth_level'],
      ['parent_auth_id', 'A,B', 'invalid parent_auth_id'],
    ])('refuses %s=%j (400, 90100 naming the field)', async (field, value, message) => {
      const res = await h.a.createAuth('C-ENUM', { auth_name: 'n', [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(message));
    });

    it('answers 50 concurrent creates of one id with exactly one 201 and 49 × 409 10010', async () => {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => h.a.createAuth('C-RACE', { auth_name: `racer ${i}` })));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(49);
      for (const r of answers.filter((a) => a.status === 409)) expect(r.body).toEqual({ response_code: '10010', response_message: 'auth id already exists' });
      const { rows } = await h.db.query(`SELECT count(*)::int AS n FROM auths WHERE app_token = $1 AND auth_id = 'C-RACE'`, [APP_A.appToken]);
      expect(rows[0].n).toBe(1);
    });
  });

  describe('field lengths (at the limit and one over)', () => {
    const cases: [string, number][] = [
      ['auth_name', 32],
      ['auth_desc', 64],
      ['auth_type', 8],
    ];
    it.each(cases)('%s: %i characters pass, one more is 90100', async (field, max) => {
      const at = await h.a.createAuth(`L-${field}`.slice(0, 16), { auth_name: 'n', [field]: 'x'.repeat(max) });
      expect(at.status).toBe(201);
      expect((await h.a.getAuth(`L-${field}`.slice(0, 16))).body).toMatchObject({ [field]: 'x'.repeat(max) });
      const over = await h.a.createAuth(`O-${field}`.slice(0, 16), { auth_name: 'n', [field]: 'x'.repeat(max + 1) });
      expect(over.status).toBe(400);
      expect(over.body).toEqual(invalid(`too long ${field}`));
    });

    it('auth_level: two digits pass, three are 90100', async () => {
      expect((await h.a.createAuth('L-LEVEL', { auth_name: 'n', auth_level: '99' })).status).toBe(201);
      const over = await h.a.createAuth('O-LEVEL', { auth_name: 'n', auth_level: '100' });
      expect(over.status).toBe(400);
      expect(over.body).toEqual(invalid('too long auth_level'));
    });

    it('auth_id (path): 16 characters pass, 17 are 90100', async () => {
      const id16 = 'I'.repeat(16);
      expect((await h.a.createAuth(id16, { auth_name: 'n' })).status).toBe(201);
      expect((await h.a.getAuth(id16)).body).toMatchObject({ auth_id: id16 });
      for (const res of [await h.a.createAuth('I'.repeat(17), { auth_name: 'n' }), await h.a.getAuth('I'.repeat(17)), await h.a.modifyAuth('I'.repeat(17), {})]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalid('too long auth_id'));
      }
    });

    it('parent_auth_id: 16 characters pass, 17 are 90100', async () => {
      await seedAuth(h.a, 'P'.repeat(16));
      expect((await h.a.createAuth('L-PARENT', { auth_name: 'n', parent_auth_id: 'P'.repeat(16) })).status).toBe(201);
      const over = await h.a.createAuth('O-PARENT', { auth_name: 'n', parent_auth_id: 'P'.repeat(17) });
      expect(over.status).toBe(400);
      expect(over.body).toEqual(invalid('too long parent_auth_id'));
    });

    it('counts characters, not bytes: 32 CJK characters are a valid name', async () => {
      const name = '权'.repeat(32);
      expect((await h.a.createAuth('L-CJK', { auth_name: name })).status).toBe(201);
      expect((await h.a.getAuth('L-CJK')).body).toMatchObject({ auth_name: name });
      expect((await h.a.createAuth('O-CJK', { auth_name: '权'.repeat(33) })).body).toEqual(invalid('too long auth_name'));
    });

    it('counts code points as PostgreSQL does: an emoji with a variation selector is two', async () => {
      // '❤️' is U+2764 U+FE0F: two characters for the varchar(32) column.
      const name = '❤️'.repeat(16);
      expect((await h.a.createAuth('L-EMOJI', { auth_name: name })).status).toBe(201);
      expect((await h.a.getAuth('L-EMOJI')).body).toMatchObject({ auth_name: name });
      const over = await h.a.createAuth('O-EMOJI', { auth_name: `${name}x` });
      expect(over.status).toBe(400);
      expect(over.body).toEqual(invalid('too long auth_name'));
      const groupOver = await h.a.createGroup('O-EMOJI', { group_name: `${name}x` });
      expect(groupOver.status).toBe(400);
      expect(groupOver.body).toEqual(invalid('too long group_name'));
    });

    it('refuses a NUL character in a text field (400, 90100), never a 500', async () => {
      const res = await h.a.createAuth('NUL', { auth_name: 'a\u0000b' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('invalid auth_name'));
      const desc = await h.a.createAuth('NUL', { auth_name: 'n', auth_desc: '\u0000' });
      expect(desc.status).toBe(400);
      expect(desc.body).toEqual(invalid('invalid auth_desc'));
    });
  });

  describe('SQL metacharacters and unicode', () => {
    const id = `a'"; --%_\\*🔑`;
    const fields = {
      auth_name: `x' OR '1'='1 --`,
      auth_desc: `"); DROP TABLE auths; -- 权限 émoji 🔐 \\ % _ \u0000`.replace('\u0000', ''),
      auth_type: `%_'"\\`,
    };

    it('round-trips ids and values unchanged, in reads, lists and filters', async () => {
      const res = await h.a.createAuth(id, fields);
      expect(res.status).toBe(201);
      expect((await h.a.getAuth(id)).body).toEqual(ok({ ...authView(id), ...fields }));
      const listed = await h.a.listAuths({ auth_ids: id });
      expect(listed.body).toMatchObject({ response_code: '90000', count: '1', list: [{ auth_id: id, ...fields }] });
      const byType = await h.a.listAuths({ auth_type: fields.auth_type });
      expect(byType.body).toMatchObject({ count: '1', list: [{ auth_id: id }] });
      await seedAuth(h.a, 'META-CHILD', { parent_auth_id: id });
      expect((await h.a.listAuths({ parent_auth_id: id })).body).toMatchObject({ count: '1', list: [{ auth_id: 'META-CHILD', parent_auth_id: id }] });
      const { rows } = await h.db.query(`SELECT count(*)::int AS n FROM auths`);
      expect(rows[0].n).toBeGreaterThan(1);
    });

    it('refuses a control character in an id', async () => {
      const res = await h.a.createAuth('bad\tid', { auth_name: 'n' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('invalid auth_id'));
    });
  });

  describe('PUT /auths/{AUTH_ID}', () => {
    beforeAll(async () => {
      await seedAuths(h.a, 'M-ROOT', 'M-OTHER');
      await seedAuth(h.a, 'M-1', { auth_desc: 'desc', auth_state: '1', auth_type: 'menu', auth_level: '3', parent_auth_id: 'M-ROOT', sub_auth_flag: '1' });
    });

    it('changes only the fields sent; an empty field is set empty; answers 201', async () => {
      const before = await stored(APP_A.appToken, 'M-1');
      await new Promise((r) => setTimeout(r, 1100));
      const res = await h.a.modifyAuth('M-1', { auth_desc: '', auth_state: '0', parent_auth_id: 'M-OTHER' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual(OK_CREATED);
      expect((await h.a.getAuth('M-1')).body).toEqual(
        ok({ auth_id: 'M-1', auth_name: 'name of M-1', auth_desc: '', auth_state: '0', auth_type: 'menu', auth_level: '3', parent_auth_id: 'M-OTHER', sub_auth_flag: '1' }),
      );
      const after = await stored(APP_A.appToken, 'M-1');
      expect(after!.create_time).toBe(before!.create_time);
      expect(after!.update_time > before!.update_time).toBe(true);
      expect(after!.auth_seq_id).toBe(before!.auth_seq_id);
    });

    it('accepts an empty modification (nothing changes) and a multipart one', async () => {
      expect((await h.a.modifyAuth('M-1', {})).status).toBe(201);
      const res = await h.a.modifyAuth('M-1', { auth_name: 'Renamed' }, { multipart: true });
      expect(res.status).toBe(201);
      expect((await h.a.getAuth('M-1')).body).toMatchObject({ auth_name: 'Renamed', auth_type: 'menu' });
    });

    it('can clear the parent with an empty parent_auth_id', async () => {
      await seedAuth(h.a, 'M-2', { parent_auth_id: 'M-ROOT' });
      expect((await h.a.modifyAuth('M-2', { parent_auth_id: '' })).status).toBe(201);
      expect((await h.a.getAuth('M-2')).body).toMatchObject({ parent_auth_id: '' });
    });

    it('refuses to empty the name (400, 90100)', async () => {
      const res = await h.a.modifyAuth('M-1', { auth_name: '' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('missing auth_name'));
    });

    it('refuses a missing auth: 404, 10130', async () => {
      const res = await h.a.modifyAuth('M-NONE', { auth_name: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ response_code: '10130', response_message: 'auth id does not exist' });
      expect((await h.a.getAuth('M-NONE')).status).toBe(404);
    });

    it('refuses a parent that does not exist: 400, 10131, and changes nothing', async () => {
      const res = await h.a.modifyAuth('M-1', { auth_name: 'changed?', parent_auth_id: 'NO-SUCH' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ response_code: '10131', response_message: 'parent auth does not exist' });
      expect((await h.a.getAuth('M-1')).body).toMatchObject({ auth_name: 'Renamed', parent_auth_id: 'M-OTHER' });
    });

    it('refuses to make an auth its own ancestor (400, 90100 naming parent_auth_id)', async () => {
      await seedAuth(h.a, 'CY-A');
      await seedAuth(h.a, 'CY-B', { parent_auth_id: 'CY-A' });
      await seedAuth(h.a, 'CY-C', { parent_auth_id: 'CY-B' });
      for (const parent of ['CY-A', 'CY-B', 'CY-C']) {
        const res = await h.a.modifyAuth('CY-A', { parent_auth_id: parent });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalid('cyclic parent_auth_id'));
      }
      expect((await h.a.getAuth('CY-A')).body).toMatchObject({ parent_auth_id: '' });
      // Moving a subtree elsewhere is fine.
      expect((await h.a.modifyAuth('CY-C', { parent_auth_id: 'CY-A' })).status).toBe(201);
    });

    it('never lets two concurrent re-parentings build a cycle', async () => {
      await seedAuths(h.a, 'RC-X', 'RC-Y');
      const [x, y] = await Promise.all([h.a.modifyAuth('RC-X', { parent_auth_id: 'RC-Y' }), h.a.modifyAuth('RC-Y', { parent_auth_id: 'RC-X' })]);
      expect([x.status, y.status].sort()).toEqual([201, 400]);
      expect([x.body, y.body]).toContainEqual(invalid('cyclic parent_auth_id'));
    });

    it.each([
      ['auth_state', '3', 'bad value of auth_state'],
      ['sub_auth_flag', '2', 'bad value of sub_auth_flag'],
      ['auth_level', 'x', 'invalid auth_level'],
      ['auth_name', 'n'.repeat(33), 'too long auth_name'],
      ['auth_desc', 'd'.repeat(65), 'too long auth_desc'],
      ['auth_type', 't'.repeat(9), 'too long auth_type'],
    ])('validates %s like create (400, 90100)', async (field, value, message) => {
      const res = await h.a.modifyAuth('M-1', { [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(message));
    });
  });

  describe('GET /auths and GET /auths/{AUTH_ID}', () => {
    let l: AccountHarness;

    beforeAll(async () => {
      // A run of its own, so the list holds exactly these auths.
      l = await startAccountHarness();
      await seedAuth(l.a, 'L-ROOT', { auth_state: '1', auth_type: 'menu', auth_level: '1', sub_auth_flag: '1' });
      await seedAuth(l.a, 'L-CHILD1', { auth_state: '1', auth_type: 'button', auth_level: '2', parent_auth_id: 'L-ROOT' });
      await seedAuth(l.a, 'L-CHILD2', { auth_state: '0', auth_type: 'button', auth_level: '2', parent_auth_id: 'L-ROOT' });
      await seedAuth(l.a, 'L-LONE', { auth_state: '1', parent_auth_id: '' });
    });
    afterAll(() => l?.close());

    const ids = (body: unknown) => (body as { list: { auth_id: string }[] }).list.map((a) => a.auth_id);

    it('lists every auth of the app in creation order, with the additional fields', async () => {
      const res = await l.a.listAuths();
      expect(res.status).toBe(200);
      const body = res.body;
      expect(body.count).toBe('4');
      expect(ids(body)).toEqual(['L-ROOT', 'L-CHILD1', 'L-CHILD2', 'L-LONE']);
      const row = async (id: string) => {
        const s = (await l.db.query(
          `SELECT auth_seq_id::text, to_char(create_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS c, to_char(update_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS u FROM auths WHERE auth_id = $1`,
          [id],
        )).rows[0] as { auth_seq_id: string; c: string; u: string };
        return s;
      };
      const root = await row('L-ROOT');
      expect(res.body).toMatchObject({ response_code: '90000', response_message: 'success' });
      expect(body.list[0]).toEqual({
        app_token: APP_A.appToken,
        auth_seq_id: root.auth_seq_id,
        ...authView('L-ROOT', { auth_state: '1', auth_type: 'menu', auth_level: '1', sub_auth_flag: '1' }),
        create_time: root.c,
        update_time: root.u,
      });
      const seqs = body.list.map((a) => Number(a.auth_seq_id));
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      for (const item of body.list) {
        expect(item.create_time).toMatch(TIMESTAMP);
        expect(item.update_time).toMatch(TIMESTAMP);
        expect(item.auth_seq_id).toMatch(/^\d+$/);
      }
      expect(body.list[3]).toEqual(expect.objectContaining({ auth_id: 'L-LONE', parent_auth_id: '', auth_type: null, sub_auth_flag: null }));
    });

    it.each([
      [{ auth_ids: 'L-CHILD2,L-ROOT,NOPE' }, ['L-ROOT', 'L-CHILD2']],
      [{ auth_ids: ' L-LONE ' }, ['L-LONE']],
      [{ auth_state: '0' }, ['L-CHILD2']],
      [{ auth_state: '1' }, ['L-ROOT', 'L-CHILD1', 'L-LONE']],
      [{ auth_type: 'button' }, ['L-CHILD1', 'L-CHILD2']],
      [{ auth_level: '2' }, ['L-CHILD1', 'L-CHILD2']],
      [{ parent_auth_id: 'L-ROOT' }, ['L-CHILD1', 'L-CHILD2']],
      [{ parent_auth_id: '' }, ['L-ROOT', 'L-LONE']],
      [{ auth_state: '1', auth_type: 'button', parent_auth_id: 'L-ROOT' }, ['L-CHILD1']],
      [{ auth_ids: '', auth_state: '', auth_type: '', auth_level: '' }, ['L-ROOT', 'L-CHILD1', 'L-CHILD2', 'L-LONE']],
    ])('filters by %j', async (query, expected) => {
      const res = await l.a.listAuths(query);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ response_code: '90000', count: String(expected.length) });
      expect(ids(res.body)).toEqual(expected);
    });

    it('answers a query without a match with 200, 10201, count "0" and an empty list', async () => {
      for (const query of [{ auth_ids: 'NOPE' }, { auth_type: 'none' }, { auth_state: '0', auth_level: '1' }]) {
        const res = await l.a.listAuths(query);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ response_code: '10201', response_message: 'query succeeded, no data', count: '0', list: [] });
      }
    });

    it.each([
      [{ auth_state: '5' }, 'bad value of auth_state'],
      [{ auth_level: 'o1' }, 'invalid auth_level'],
      [{ auth_type: 'x'.repeat(9) }, 'too long auth_type'],
      [{ parent_auth_id: 'x'.repeat(17) }, 'too long parent_auth_id'],
      [{ auth_ids: 'A,,B' }, 'empty item in auth_ids'],
    ])('refuses the filter %j (400, 90100)', async (query, message) => {
      const res = await l.a.listAuths(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(message));
    });

    it('reads one auth with exactly the Auth fields', async () => {
      const res = await l.a.getAuth('L-CHILD1');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(ok(authView('L-CHILD1', { auth_state: '1', auth_type: 'button', auth_level: '2', parent_auth_id: 'L-ROOT' })));
    });

    it('answers a missing id with 404, 10301', async () => {
      const res = await l.a.getAuth('NOPE');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ response_code: '10301', response_message: 'query succeeded, no data' });
    });
  });

  describe('tenancy (CONTRACT §5)', () => {
    beforeAll(async () => {
      await seedAuth(h.a, 'T-SHARED', { auth_name: 'of A', auth_state: '1' });
      await seedAuth(h.a, 'T-A-ONLY');
    });

    it('app B neither reads nor lists nor filters app A’s auths', async () => {
      expect((await h.b.getAuth('T-SHARED')).body).toEqual({ response_code: '10301', response_message: 'query succeeded, no data' });
      expect((await h.b.listAuths({ auth_ids: 'T-SHARED,T-A-ONLY' })).body).toEqual({ response_code: '10201', response_message: 'query succeeded, no data', count: '0', list: [] });
    });

    it('app B cannot change app A’s auth nor use it as a parent', async () => {
      const put = await h.b.modifyAuth('T-SHARED', { auth_name: 'hijacked' });
      expect(put.status).toBe(404);
      expect(put.body).toEqual({ response_code: '10130', response_message: 'auth id does not exist' });
      const child = await h.b.createAuth('T-B-CHILD', { auth_name: 'n', parent_auth_id: 'T-A-ONLY' });
      expect(child.status).toBe(400);
      expect(child.body).toEqual({ response_code: '10021', response_message: 'parent auth does not exist' });
      expect((await h.a.getAuth('T-SHARED')).body).toMatchObject({ auth_name: 'of A' });
    });

    it('app B can create the same id; each app then sees its own record only', async () => {
      const res = await h.b.createAuth('T-SHARED', { auth_name: 'of B', auth_state: '0' });
      expect(res.status).toBe(201);
      expect((await h.a.getAuth('T-SHARED')).body).toMatchObject({ auth_name: 'of A', auth_state: '1' });
      expect((await h.b.getAuth('T-SHARED')).body).toMatchObject({ auth_name: 'of B', auth_state: '0' });
      const listB = await h.b.listAuths();
      expect(listB.body).toMatchObject({ count: '1', list: [{ app_token: APP_B.appToken, auth_id: 'T-SHARED', auth_name: 'of B' }] });
    });
  });
});
