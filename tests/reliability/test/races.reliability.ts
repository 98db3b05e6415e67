import { APP_A, accountClient } from '../src/apps';
import { type AccountFixture, accountOnFreshDatabase } from '../src/account-fixture';
import { figure } from '../src/figures';
import { password } from '../src/sentinels';
import { ServiceProcess, stopAllServices } from '../src/service-process';

const DUPLICATES = 100;

function counts(statuses: { status: number; body: unknown }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of statuses) {
    const key = `${r.status}/${(r.body as Record<string, string>).response_code}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

describe('races', () => {
  let f: AccountFixture;

  beforeAll(async () => {
    f = await accountOnFreshDatabase('account-races');
  });
  afterAll(async () => {
    await f?.close();
    await stopAllServices();
  });

  describe(`${DUPLICATES} concurrent duplicate creates: exactly one 201, the others 409 with the spec code`, () => {
    const cases = [
      { what: 'auth', code: '10010', table: 'auths', key: 'auth_id', send: (id: string) => f.a.createAuth(id, { auth_name: 'dup' }) },
      {
        what: 'group',
        code: '10420',
        table: 'auth_groups',
        key: 'group_id',
        send: (id: string) => f.a.createGroup(id, { group_name: 'dup' }),
      },
      {
        what: 'user',
        code: '20020',
        table: 'users',
        key: 'user_login_id',
        send: (id: string) => f.a.registerUser(id, { user_name: 'dup', user_type: 'C', user_pwd: password('dup') }),
      },
    ];
    it.each(cases)('$what', async ({ what, code, table, key, send }) => {
      const id = `dup-${what}`;
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: DUPLICATES }, () => send(id)));
      const tally = counts(answers);
      figure('races', `${DUPLICATES} duplicate ${what} creates`, JSON.stringify(tally), '', `1 × 201, ${DUPLICATES - 1} × 409/${code}`);
      figure('races', `${DUPLICATES} duplicate ${what} creates: wall time`, Date.now() - started, 'ms');
      expect(tally).toEqual({ '201/90000': 1, [`409/${code}`]: DUPLICATES - 1 });
      for (const r of answers.filter((x) => x.status === 409)) {
        expect((r.body as Record<string, string>).response_message.length).toBeLessThanOrEqual(32);
      }
      const { rows } = await f.db.pool.query(`SELECT count(*)::int AS n FROM "${table}" WHERE app_token = $1 AND "${key}" = $2`, [
        APP_A.appToken,
        id,
      ]);
      expect(rows[0].n).toBe(1);
    });
  });

  describe('concurrent partial PUTs on different fields of one record keep both changes', () => {
    const ROUNDS = 25;
    const cases = [
      {
        what: 'auth',
        create: (id: string) => f.a.createAuth(id, { auth_name: 'n0', auth_desc: 'd0' }),
        left: (id: string, r: number) => f.a.modifyAuth(id, { auth_name: `name ${r}` }),
        right: (id: string, r: number) => f.a.modifyAuth(id, { auth_desc: `desc ${r}` }),
        read: (id: string) => f.a.getAuth(id),
        expected: (r: number) => ({ auth_name: `name ${r}`, auth_desc: `desc ${r}` }),
      },
      {
        what: 'group',
        create: (id: string) => f.a.createGroup(id, { group_name: 'n0', group_desc: 'd0' }),
        left: (id: string, r: number) => f.a.modifyGroup(id, { group_name: `name ${r}` }),
        right: (id: string, r: number) => f.a.modifyGroup(id, { group_desc: `desc ${r}` }),
        read: (id: string) => f.a.getGroup(id),
        expected: (r: number) => ({ group_name: `name ${r}`, group_desc: `desc ${r}` }),
      },
      {
        what: 'user',
        create: (id: string) => f.a.registerUser(id, { user_name: 'n0', user_short_name: 's0', user_type: 'C', user_pwd: password('put') }),
        left: (id: string, r: number) => f.a.modifyUser(id, { user_name: `name ${r}` }),
        right: (id: string, r: number) => f.a.modifyUser(id, { user_short_name: `short ${r}` }),
        read: (id: string) => f.a.getUser(id),
        expected: (r: number) => ({ user_name: `name ${r}`, user_short_name: `short ${r}` }),
      },
    ];
    it.each(cases)('$what', async ({ what, create, left, right, read, expected }) => {
      const lost: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const id = `put-${what}-${r}`;
        expect((await create(id)).status).toBe(201);
        const [x, y] = await Promise.all([left(id, r), right(id, r)]);
        expect([x.status, y.status]).toEqual([201, 201]);
        const got = await read(id);
        expect(got.status).toBe(200);
        const want = expected(r);
        const body = got.body as Record<string, unknown>;
        if (Object.entries(want).some(([k, v]) => body[k] !== v)) lost.push(r);
        expect(body).toEqual(expect.objectContaining({ response_code: '90000', ...want }));
      }
      figure('races', `concurrent partial PUT pairs on one ${what}: rounds / lost updates`, `${ROUNDS} / ${lost.length}`, '', 'lost = 0');
    });
  });

  describe('concurrent wrong-password logins', () => {
    it('5 concurrent failures lock (each counted once): the 6th and the right password get 20443', async () => {
      const id = 'lock-five';
      expect((await f.a.registerUser(id, { user_name: 'lock', user_type: 'C', user_pwd: password('lock') })).status).toBe(201);
      const answers = await Promise.all(Array.from({ length: 5 }, () => f.a.login(id, password('wrong'))));
      const sixth = await f.a.login(id, password('wrong'));
      const right = await f.a.login(id, password('lock'));
      figure(
        'races',
        '5 concurrent wrong logins, then a 6th, then the right password',
        `${JSON.stringify(counts(answers))}, ${sixth.status}/${(sixth.body as Record<string, string>).response_code}, ${right.status}/${(right.body as Record<string, string>).response_code}`,
      );
      expect(counts(answers)).toEqual({ '401/20441': 5 });
      expect(sixth).toMatchObject({ status: 403, body: { response_code: '20443' } });
      expect(right).toMatchObject({ status: 403, body: { response_code: '20443' } });
    });

    it('10 concurrent failures: exactly 5 × 20441 (each claimed before its password is verified), the rest 20443, and the login id is locked', async () => {
      const id = 'lock-ten';
      expect((await f.a.registerUser(id, { user_name: 'lock', user_type: 'C', user_pwd: password('lock') })).status).toBe(201);
      const answers = await Promise.all(Array.from({ length: 10 }, () => f.a.login(id, password('wrong'))));
      const tally = counts(answers);
      figure('races', '10 concurrent wrong logins (lock at 5)', JSON.stringify(tally));
      expect(tally['401/20441']).toBe(5);
      expect((tally['401/20441'] ?? 0) + (tally['403/20443'] ?? 0)).toBe(10);
      const { rows } = await f.db.pool.query(
        `SELECT locked_until > now() AS locked FROM login_failures WHERE app_token = $1 AND user_login_id = $2`,
        [APP_A.appToken, id],
      );
      expect(rows).toEqual([{ locked: true }]);
      expect(await f.a.login(id, password('lock'))).toMatchObject({ status: 403, body: { response_code: '20443' } });
    });

    it('the stored counter counts each of 40 concurrent failures exactly once', async () => {
      // A second instance on the same database whose lock threshold is out of reach, so every
      // failure stays in the counter.
      const counting = await ServiceProcess.start('account', {
        name: 'account-races-counter',
        env: { DATABASE_URL: f.db.url, LOGIN_MAX_FAILURES: '1000' },
      });
      try {
        const client = accountClient(counting.baseUrl, APP_A);
        const id = 'lock-count';
        expect((await client.registerUser(id, { user_name: 'count', user_type: 'C', user_pwd: password('count') })).status).toBe(201);
        const answers = await Promise.all(Array.from({ length: 40 }, () => client.login(id, password('wrong'))));
        expect(counts(answers)).toEqual({ '401/20441': 40 });
        const unknown = await Promise.all(Array.from({ length: 20 }, () => client.login('no-such-user', password('wrong'))));
        expect(counts(unknown)).toEqual({ '401/20441': 20 });
        const { rows } = await f.db.pool.query<{ user_login_id: string; n: number }>(
          `SELECT user_login_id, cardinality(failed_at) AS n FROM login_failures WHERE app_token = $1 AND user_login_id = ANY($2) ORDER BY 1`,
          [APP_A.appToken, [id, 'no-such-user']],
        );
        figure(
          'races',
          'stored failure counter after 40 (known id) and 20 (unknown id) concurrent failures',
          rows.map((r) => `${r.user_login_id}=${r.n}`).join(', '),
          '',
          '40 and 20',
        );
        expect(rows).toEqual([
          { user_login_id: id, n: 40 },
          { user_login_id: 'no-such-user', n: 20 },
        ]);
      } finally {
        await counting.stop();
      }
    });
  });
});
