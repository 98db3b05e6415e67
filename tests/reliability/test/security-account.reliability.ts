import { randomBytes } from 'node:crypto';
import type { TestAccountClient } from '@geoaccount/client/internal';
import { signAccount } from '@geoaccount/signing';
import { type AccountFixture, accountOnFreshDatabase } from '../src/account-fixture';
import { APP_A, APP_B, accountClient } from '../src/apps';
import { accountDigest } from '../src/database';
import { figure, median } from '../src/figures';
import { formEncode, sendRaw } from '../src/fuzz/http';
import { certId, mobile, password } from '../src/sentinels';
import { ServiceProcess, stopAllServices } from '../src/service-process';

const now = () => Math.floor(Date.now() / 1000);
type Body = Record<string, unknown>;

/** App A's records: what app B probes. */
async function seedAppA(a: TestAccountClient): Promise<void> {
  const ok = (r: { status: number; body: unknown }) => expect(r).toMatchObject({ status: 201, body: { response_code: '90000' } });
  ok(await a.createAuth('T1', { auth_name: 'tenant A root', auth_state: '1' }));
  ok(await a.createAuth('T2', { auth_name: 'tenant A child', auth_state: '1', parent_auth_id: 'T1' }));
  ok(await a.createGroup('TG1', { group_name: 'tenant A group', group_auths: 'T1,T2' }));
  ok(
    await a.registerUser('tu1', {
      user_name: 'tenant A user',
      user_type: 'C',
      user_pwd: password('tenant-a'),
      cert_type: '00',
      cert_id: certId(1),
      user_mobile: mobile(1),
      user_auths: 'T1',
      user_auth_groups: 'TG1',
    }),
  );
}

describe('security (account)', () => {
  let f: AccountFixture;

  beforeAll(async () => {
    // No lock within reach: the timing test sends many failures for one login id.
    f = await accountOnFreshDatabase('account-security', { LOGIN_MAX_FAILURES: '1000' });
    await seedAppA(f.a);
  });
  afterAll(async () => {
    await f?.close();
    await stopAllServices();
  });

  describe('tenant isolation: app B × app A’s records', () => {
    type Cell = [string, (b: TestAccountClient) => Promise<{ status: number; body: unknown }>, number, string, Body?];
    const reads: Cell[] = [
      ['GET /auths/{A’s id}', (b) => b.getAuth('T1'), 404, '10301'],
      ['GET /auths?auth_ids={A’s ids}', (b) => b.listAuths({ auth_ids: 'T1,T2' }), 200, '10201', { count: '0', list: [] }],
      ['GET /auths?parent_auth_id={A’s id}', (b) => b.listAuths({ parent_auth_id: 'T1' }), 200, '10201', { count: '0', list: [] }],
      ['GET /auths', (b) => b.listAuths(), 200, '10201', { count: '0', list: [] }],
      ['GET /authgroups/{A’s id}', (b) => b.getGroup('TG1'), 404, '10701'],
      ['GET /authgroups?group_ids={A’s id}', (b) => b.listGroups({ group_ids: 'TG1' }), 200, '10611', { count: '0', group_list: [] }],
      ['GET /authgroups', (b) => b.listGroups(), 200, '10611', { count: '0', group_list: [] }],
      ['GET /users/{A’s id}', (b) => b.getUser('tu1'), 404, '20301'],
      ['GET /users?user_login_ids={A’s id}', (b) => b.listUsers({ user_login_ids: 'tu1' }), 200, '20201', { count: '0' }],
      ['GET /users', (b) => b.listUsers(), 200, '20201', { count: '0' }],
      ['GET /users/{A’s id}/auths', (b) => b.userAuths('tu1'), 404, '20501'],
      ['GET /users/{A’s id}/auths/{A’s auth}', (b) => b.userHasAuth('tu1', 'T1'), 404, '20601'],
      ['POST /users/login/{A’s id} with A’s password', (b) => b.login('tu1', password('tenant-a')), 401, '20441'],
    ];
    const writes: Cell[] = [
      ['PUT /auths/{A’s id}', (b) => b.modifyAuth('T1', { auth_name: 'taken over' }), 404, '10130'],
      ['PUT /authgroups/{A’s id}', (b) => b.modifyGroup('TG1', { group_auths: '' }), 404, '10530'],
      ['PUT /users/{A’s id}', (b) => b.modifyUser('tu1', { user_pwd: password('hijack') }), 404, '20130'],
      ['POST /auths with parent_auth_id={A’s id}', (b) => b.createAuth('BX1', { auth_name: 'b', parent_auth_id: 'T1' }), 400, '10021'],
      ['POST /authgroups with group_auths={A’s id}', (b) => b.createGroup('BXG', { group_name: 'b', group_auths: 'T1' }), 400, '10422'],
      [
        'POST /users with user_auths={A’s id}',
        (b) => b.registerUser('bxu1', { user_name: 'b', user_type: 'C', user_pwd: password('b'), user_auths: 'T1' }),
        400,
        '90100',
      ],
      [
        'POST /users with user_auth_groups={A’s id}',
        (b) => b.registerUser('bxu2', { user_name: 'b', user_type: 'C', user_pwd: password('b'), user_auth_groups: 'TG1' }),
        400,
        '90100',
      ],
    ];

    let digestA: string;
    beforeAll(async () => {
      digestA = await accountDigest(f.db.pool, APP_A.appToken);
    });

    const matrix = [...reads, ...writes].map(([what, call, status, code, extra]) => ({ what, call, status, code, extra: extra ?? {} }));
    it.each(matrix)('$what → $status $code', async ({ call, status, code, extra }) => {
      const res = await call(f.b);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ response_code: code, ...extra });
      // Nothing of A's records leaks into the answer.
      expect(JSON.stringify(res.body)).not.toMatch(/tenant A|T1|TG1|tu1|RELCERT|1391234/);
    });

    it('app B may use the same ids for its own records; A’s stay A’s', async () => {
      expect(await f.b.createAuth('T1', { auth_name: 'B own T1' })).toMatchObject({ status: 201 });
      expect(await f.b.createGroup('TG1', { group_name: 'B own TG1', group_auths: 'T1' })).toMatchObject({ status: 201 });
      expect(await f.b.registerUser('tu1', { user_name: 'B own tu1', user_type: 'B', user_pwd: password('b-own') })).toMatchObject({
        status: 201,
      });
      expect((await f.a.getAuth('T1')).body).toMatchObject({ auth_name: 'tenant A root' });
      expect((await f.a.getGroup('TG1')).body).toMatchObject({ group_name: 'tenant A group' });
      expect((await f.a.getUser('tu1')).body).toMatchObject({ user_name: 'tenant A user', user_type: 'C' });
      expect((await f.b.listAuths()).body).toMatchObject({
        count: '1',
        list: [expect.objectContaining({ auth_id: 'T1', auth_name: 'B own T1' })],
      });
      // A's password does not open B's user of the same login id, nor the other way round.
      expect(await f.b.login('tu1', password('tenant-a'))).toMatchObject({ status: 401, body: { response_code: '20441' } });
      expect(await f.a.login('tu1', password('b-own'))).toMatchObject({ status: 401, body: { response_code: '20441' } });
    });

    it('none of app B’s requests changed a row of app A', async () => {
      expect(await accountDigest(f.db.pool, APP_A.appToken)).toBe(digestA);
      figure(
        'security',
        'tenant isolation matrix (app B × app A’s records)',
        `${reads.length} reads + ${writes.length} writes refused, A’s rows unchanged`,
      );
    });
  });

  describe('signatures cannot be replayed or moved', () => {
    /** A complete signed request, as bytes on the wire. */
    function signedForm(method: string, app: typeof APP_A, path: string, fields: Record<string, string>, pathIds: Record<string, string>) {
      const sig = signAccount(app.secret, method, app.appToken, path, { ...fields, ...pathIds });
      return formEncode([...Object.entries(fields), ['app_token', app.appToken], ['signature', sig]]);
    }
    const form = 'application/x-www-form-urlencoded';

    it('a request replayed after its timestamp left the window is refused (401, 90401)', async () => {
      const short = await ServiceProcess.start('account', {
        name: 'account-security-skew',
        env: { DATABASE_URL: f.db.url, SIGNATURE_MAX_SKEW_SECONDS: '2' },
      });
      try {
        const body = signedForm(
          'POST',
          APP_A,
          '/account/v1.0.1/auths/RP1',
          { auth_name: 'replayed', timestamp: String(now()) },
          { auth_id: 'RP1' },
        );
        expect(await sendRaw(short.baseUrl, 'POST', '/account/v1.0.1/auths/RP1', body, form)).toMatchObject({ status: 201 });
        const read = `/account/v1.0.1/auths/RP1?${signedForm('GET', APP_A, '/account/v1.0.1/auths/RP1', { timestamp: String(now()) }, { auth_id: 'RP1' })}`;
        expect(await sendRaw(short.baseUrl, 'GET', read)).toMatchObject({ status: 200 });
        await new Promise((r) => setTimeout(r, 3500));
        const late = await sendRaw(short.baseUrl, 'GET', read);
        expect(late).toMatchObject({ status: 401, body: { response_code: '90401' } });
        const lateWrite = await sendRaw(short.baseUrl, 'POST', '/account/v1.0.1/auths/RP1', body, form);
        expect(lateWrite).toMatchObject({ status: 401, body: { response_code: '90401' } });
        // Default window (300 s): a timestamp 301 s old is refused too.
        const stale = await f.a.getAuth('T1', { timestamp: now() - 301 });
        expect(stale).toMatchObject({ status: 401, body: { response_code: '90401' } });
        figure('security', 'replays after the window (GET, POST; 2 s window) and a 301 s old timestamp (300 s window)', '3 × 401/90401');
      } finally {
        await short.stop();
      }
    });

    it('a request with a nonce is refused when replayed inside the window, on any instance', async () => {
      const second = await ServiceProcess.start('account', { name: 'account-security-second', env: { DATABASE_URL: f.db.url } });
      try {
        const nonce = randomBytes(12).toString('hex');
        const body = signedForm(
          'PUT',
          APP_A,
          '/account/v1.0.1/auths/T2',
          { auth_desc: 'once', timestamp: String(now()), nonce },
          { auth_id: 'T2' },
        );
        expect(await sendRaw(f.svc.baseUrl, 'PUT', '/account/v1.0.1/auths/T2', body, form)).toMatchObject({ status: 201 });
        expect(await sendRaw(f.svc.baseUrl, 'PUT', '/account/v1.0.1/auths/T2', body, form)).toMatchObject({
          status: 401,
          body: { response_code: '90401' },
        });
        expect(await sendRaw(second.baseUrl, 'PUT', '/account/v1.0.1/auths/T2', body, form)).toMatchObject({
          status: 401,
          body: { response_code: '90401' },
        });
        figure('security', 'nonce replayed inside the window, same instance / other instance', '401/90401 both');
      } finally {
        await second.stop();
      }
    });

    it('a signature moved to another route, path id, method or app is refused', async () => {
      const ts = String(now());
      const cases: [string, string, string, string | undefined][] = [
        // [what, method, path + query, form body]
        [
          'GET auth T1 → T2',
          'GET',
          `/account/v1.0.1/auths/T2?${signedForm('GET', APP_A, '/account/v1.0.1/auths/T1', { timestamp: ts }, { auth_id: 'T1' })}`,
          undefined,
        ],
        [
          'PUT auth T2 → T1',
          'PUT',
          '/account/v1.0.1/auths/T1',
          signedForm('PUT', APP_A, '/account/v1.0.1/auths/T2', { auth_name: 'moved', timestamp: ts }, { auth_id: 'T2' }),
        ],
        [
          'GET user tu1 → tu2',
          'GET',
          `/account/v1.0.1/users/tu2?${signedForm('GET', APP_A, '/account/v1.0.1/users/tu1', { timestamp: ts }, { user_login_id: 'tu1' })}`,
          undefined,
        ],
        [
          'GET group TG1 → TG2',
          'GET',
          `/account/v1.0.1/authgroups/TG2?${signedForm('GET', APP_A, '/account/v1.0.1/authgroups/TG1', { timestamp: ts }, { group_id: 'TG1' })}`,
          undefined,
        ],
        [
          'GET has-auth tu1/T1 → tu1/T2',
          'GET',
          `/account/v1.0.1/users/tu1/auths/T2?${signedForm('GET', APP_A, '/account/v1.0.1/users/tu1/auths/T1', { timestamp: ts }, { user_login_id: 'tu1', auth_id: 'T1' })}`,
          undefined,
        ],
        [
          'GET /auths → GET /authgroups',
          'GET',
          `/account/v1.0.1/authgroups?${signedForm('GET', APP_A, '/account/v1.0.1/auths', { timestamp: ts }, {})}`,
          undefined,
        ],
        [
          'GET /auths → GET /users',
          'GET',
          `/account/v1.0.1/users?${signedForm('GET', APP_A, '/account/v1.0.1/auths', { timestamp: ts }, {})}`,
          undefined,
        ],
        [
          'GET /users/tu1 → GET /users/tu1/auths',
          'GET',
          `/account/v1.0.1/users/tu1/auths?${signedForm('GET', APP_A, '/account/v1.0.1/users/tu1', { timestamp: ts }, { user_login_id: 'tu1' })}`,
          undefined,
        ],
        [
          'PUT signature sent as POST',
          'POST',
          '/account/v1.0.1/auths/T9',
          signedForm('PUT', APP_A, '/account/v1.0.1/auths/T9', { auth_name: 'x', timestamp: ts }, { auth_id: 'T9' }),
        ],
        [
          'A’s signature under B’s app_token',
          'GET',
          `/account/v1.0.1/auths/T1?${formEncode([
            ['timestamp', ts],
            ['app_token', APP_B.appToken],
            ['signature', signAccount(APP_A.secret, 'GET', APP_A.appToken, '/account/v1.0.1/auths/T1', { timestamp: ts, auth_id: 'T1' })],
          ])}`,
          undefined,
        ],
        [
          'A’s signature (made with A’s token) sent by B',
          'GET',
          `/account/v1.0.1/auths/T1?${formEncode([
            ['timestamp', ts],
            ['app_token', APP_B.appToken],
            ['signature', signAccount(APP_A.secret, 'GET', APP_B.appToken, '/account/v1.0.1/auths/T1', { timestamp: ts, auth_id: 'T1' })],
          ])}`,
          undefined,
        ],
      ];
      const before = await accountDigest(f.db.pool);
      for (const [what, method, target, body] of cases) {
        const res = await sendRaw(f.svc.baseUrl, method, target, body, body === undefined ? undefined : form);
        expect({ what, status: res.status, body: res.body }).toEqual({
          what,
          status: 401,
          body: { response_code: '90401', response_message: expect.any(String) },
        });
      }
      expect(await accountDigest(f.db.pool)).toBe(before);
      figure('security', 'signatures moved to another route, path id, method or app', `${cases.length} × 401/90401`);
    });
  });

  describe('login timing', () => {
    /**
     * Largest accepted difference of the medians, relative to the larger one: the noise of a
     * busy 2-core machine (beside other load) stays under it, while an unknown id answered
     * without the dummy hash check would be several times faster (argon2id is nearly all of a
     * login's time: a difference of 70 % and more).
     */
    const TOLERANCE = 0.5;
    const ROUNDS = 60;

    it(`unknown login id and wrong password take the same time (${ROUNDS} each, interleaved; medians within ${TOLERANCE * 100}%)`, async () => {
      const client = accountClient(f.svc.baseUrl, APP_A);
      expect(await client.registerUser('timing', { user_name: 'timing', user_type: 'C', user_pwd: password('timing') })).toMatchObject({
        status: 201,
      });
      const timeOne = async (id: string) => {
        const t = process.hrtime.bigint();
        const res = await client.login(id, password('wrong'));
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        expect(res).toMatchObject({ status: 401, body: { response_code: '20441', response_message: 'login verification failed' } });
        return ms;
      };
      for (let i = 0; i < 5; i++) await Promise.all([timeOne('timing'), timeOne(`nobody-${i}`)]); // warm-up
      const unknown: number[] = [];
      const wrong: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        if (i % 2) {
          unknown.push(await timeOne(`nobody-x${i}`));
          wrong.push(await timeOne('timing'));
        } else {
          wrong.push(await timeOne('timing'));
          unknown.push(await timeOne(`nobody-x${i}`));
        }
      }
      const mu = median(unknown);
      const mw = median(wrong);
      const diff = Math.abs(mu - mw) / Math.max(mu, mw);
      figure('security', 'login median: unknown login id / wrong password', `${mu.toFixed(1)} / ${mw.toFixed(1)}`, 'ms');
      figure('security', 'login median difference', diff * 100, '%', `≤ ${TOLERANCE * 100}%`);
      expect(diff).toBeLessThanOrEqual(TOLERANCE);
    });
  });
});
