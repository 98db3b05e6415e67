import { APP_A, type AccountHarness, type RunningAccountApp, listenAccountApp, startAccountHarness } from './support/account-harness';
import { Client, Pool } from 'pg';
import { serverUrl } from './support/database';
import { seedAuth, seedGroup } from './support/fixtures';
import { type PrivatePostgres, startPrivatePostgres } from './support/private-postgres';

const SYSTEM = (code: string) => ({ response_code: code, response_message: 'system exception' });

/** One request per auths/groups interface, in interface order 100..107. */
function everyInterface(client: RunningAccountApp['client'] extends (...a: never[]) => infer C ? C : never) {
  return [
    () => client.createAuth('D-NEW', { auth_name: 'n' }),
    () => client.modifyAuth('D1', { auth_name: 'n' }),
    () => client.listAuths(),
    () => client.getAuth('D1'),
    () => client.createGroup('DG-NEW', { group_name: 'n' }),
    () => client.modifyGroup('DG1', { group_name: 'n' }),
    () => client.listGroups(),
    () => client.getGroup('DG1'),
  ];
}

describe('CONTRACT §6 outcomes', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness();
    await seedAuth(h.a, 'D1');
    await seedGroup(h.a, 'DG1', { group_auths: 'D1' });
  });
  afterAll(() => h?.close());

  it.each([
    ['GET', '/account/v1.0.1/nothing'],
    ['GET', '/account/v1.0.1/auths/D1/more'],
    ['POST', '/account/v1.0.2/auths/D1'],
    ['GET', '/'],
  ])('answers an unknown route %s %s with 404, 90404', async (method, path) => {
    const res = await h.a.request(method as 'GET', path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ response_code: '90404', response_message: 'no such interface' });
  });

  it.each([
    ['DELETE', '/account/v1.0.1/auths/D1'],
    ['PATCH', '/account/v1.0.1/authgroups/DG1'],
    ['POST', '/account/v1.0.1/auths'],
    ['PUT', '/account/v1.0.1/authgroups'],
  ])('answers a wrong method %s %s with 405, 90405', async (method, path) => {
    const res = await h.a.request(method as 'DELETE', path);
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ response_code: '90405', response_message: 'method not allowed' });
  });

  it('answers a body over BODY_LIMIT (64kb) with 413, 90413, urlencoded or multipart', async () => {
    const big = 'x'.repeat(70 * 1024);
    for (const multipart of [false, true]) {
      const res = await h.a.createAuth('D-BIG', { auth_name: 'n', auth_desc: big }, { multipart });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ response_code: '90413', response_message: 'request body too large' });
    }
    // Under the limit, the body is read and the field refused for its length.
    const under = await h.a.createAuth('D-BIG', { auth_name: 'n', auth_desc: 'x'.repeat(60 * 1024) });
    expect(under.status).toBe(400);
    expect(under.body).toEqual({ response_code: '90100', response_message: 'too long auth_desc' });
  });

  it('answers an invalid parameter with 400, 90100 naming the field', async () => {
    const res = await h.a.createAuth('D-BAD', { auth_name: 'n', sub_auth_flag: '7' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ response_code: '90100', response_message: 'bad value of sub_auth_flag' });
  });

  it('refuses a repeated query parameter (400, 90100)', async () => {
    const res = await fetch(`${h.baseUrl}/account/v1.0.1/auths?auth_state=1&auth_state=0&app_token=${APP_A.appToken}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ response_code: '90100', response_message: 'repeated auth_state' });
  });

  it('refuses a malformed multipart body (400, 90100)', async () => {
    const res = await fetch(`${h.baseUrl}/account/v1.0.1/auths/D-MALFORMED`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="auth_name"\r\n\r\nabc',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ response_code: '90100' });
  });

  describe('unexpected failure: 500 with interface number + 99', () => {
    let broken: AccountHarness;

    beforeAll(async () => {
      broken = await startAccountHarness();
      await seedAuth(broken.a, 'D1');
      await seedGroup(broken.a, 'DG1', { group_auths: 'D1' });
      // A schema the code does not expect: every query of auths and groups fails.
      await broken.db.query('ALTER TABLE auths RENAME COLUMN auth_name TO auth_name_gone');
      await broken.db.query('ALTER TABLE auth_groups RENAME COLUMN group_name TO group_name_gone');
    });
    afterAll(() => broken?.close());

    it('answers each interface 100..107 with 500 and its own NNN99, without details', async () => {
      const calls = everyInterface(broken.a);
      for (const [i, call] of calls.entries()) {
        const res = await call();
        expect({ i, status: res.status, body: res.body }).toEqual({ i, status: 500, body: SYSTEM(`${100 + i}99`) });
      }
    });
  });

  describe('database down: 503 with interface number + 99', () => {
    let pg: PrivatePostgres;
    let down: RunningAccountApp;

    beforeAll(async () => {
      pg = await startPrivatePostgres();
      down = await listenAccountApp(pg.url, { env: { DATABASE_CONNECT_TIMEOUT_MS: '2000' } });
      await seedAuth(down.client(APP_A), 'D1');
      await seedGroup(down.client(APP_A), 'DG1', { group_auths: 'D1' });
    }, 60_000);
    afterAll(async () => {
      await down?.app.close().catch(() => undefined);
      pg?.destroy();
    });

    it('answers every interface with 503 and its NNN99 while the server is stopped, and recovers when it is back', async () => {
      pg.stop();
      const client = down.client(APP_A);
      for (const [i, call] of everyInterface(client).entries()) {
        const res = await call();
        expect({ i, status: res.status, body: res.body }).toEqual({ i, status: 503, body: SYSTEM(`${100 + i}99`) });
      }
      // The nonce store is the database too: a signed request with a nonce is 503 as well.
      const withNonce = await down.client(APP_A, { nonce: true }).getAuth('D1');
      expect(withNonce.status).toBe(503);
      expect(withNonce.body).toEqual(SYSTEM('10399'));

      pg.start();
      const back = await client.getAuth('D1');
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ response_code: '90000', auth_id: 'D1' });
      expect((await client.createAuth('D2', { auth_name: 'after' })).status).toBe(201);
    }, 60_000);
  });
});

describe('database refusing connections (ALLOW_CONNECTIONS false, SQLSTATE 55000 at connect): 503 with interface number + 99', () => {
  let h: AccountHarness;
  let admin: Pool;

  beforeAll(async () => {
    h = await startAccountHarness();
    await seedAuth(h.a, 'D1');
    await seedGroup(h.a, 'DG1', { group_auths: 'D1' });
    admin = new Pool({ connectionString: serverUrl(), max: 1 });
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE "${h.databaseName}" ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin?.end();
    await h?.close();
  });

  it('answers every interface with 503 and its NNN99 while the database refuses connections, and recovers', async () => {
    await admin.query(`ALTER DATABASE "${h.databaseName}" ALLOW_CONNECTIONS false`);
    // The service's pooled connections are gone too: it has to connect again, and is refused.
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [h.databaseName]);
    const probe = new Client({ connectionString: h.databaseUrl });
    const refused = await probe.connect().then(
      () => undefined,
      (e: { code?: string }) => e.code,
    );
    await probe.end().catch(() => undefined);
    expect(refused).toBe('55000');
    for (const [i, call] of everyInterface(h.a).entries()) {
      const res = await call();
      expect({ i, status: res.status, body: res.body }).toEqual({ i, status: 503, body: SYSTEM(`${100 + i}99`) });
    }
    const user = await h.a.listUsers();
    expect({ status: user.status, body: user.body }).toEqual({ status: 503, body: SYSTEM('20299') });

    await admin.query(`ALTER DATABASE "${h.databaseName}" ALLOW_CONNECTIONS true`);
    expect((await h.a.getAuth('D1')).status).toBe(200);
  });
});

describe('CONTRACT §13: unknown parameters are refused, naming them', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness();
    await seedAuth(h.a, 'U1');
  });
  afterAll(() => h?.close());

  const unknown = (name: string) => ({ response_code: '90100', response_message: `unknown field ${name}`.slice(0, 32) });

  it('in a create body, and creates nothing', async () => {
    const res = await h.a.createAuth('U-NEW', { auth_name: 'n', auth_colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(unknown('auth_colour'));
    expect((await h.a.getAuth('U-NEW')).status).toBe(404);
  });

  it('in a modify body, and changes nothing', async () => {
    const res = await h.a.modifyAuth('U1', { auth_name: 'changed', created_by: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(unknown('created_by'));
    expect((await h.a.getAuth('U1')).body).toMatchObject({ auth_name: 'name of U1' });
  });

  it('in a list query and in the query of a read by id', async () => {
    const list = await h.a.listAuths({ auth_state: '1', limit: '5' });
    expect(list.status).toBe(400);
    expect(list.body).toEqual(unknown('limit'));
    const one = await h.a.request('GET', '/account/v1.0.1/auths/U1', { limit: '5' }, { auth_id: 'U1' });
    expect(one.status).toBe(400);
    expect(one.body).toEqual(unknown('limit'));
    const users = await h.a.listUsers({ sort: 'name' });
    expect(users.status).toBe(400);
    expect(users.body).toEqual(unknown('sort'));
  });

  it('cuts a long unknown name to the 32 characters of response_message', async () => {
    const res = await h.a.createAuth('U-LONG', { auth_name: 'n', a_rather_long_unknown_field_name: '1' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ response_code: '90100', response_message: 'unknown field a_rather_long_unkn' });
  });

  it('still takes the signature fields, a nonce, and the path id repeated with its own value', async () => {
    expect((await h.a.createAuth('U-ID', { auth_name: 'n', auth_id: 'U-ID', nonce: 'n-1' })).status).toBe(201);
    expect((await h.a.request('GET', '/account/v1.0.1/auths/U-ID', { nonce: 'n-2', auth_id: 'U-ID' }, { auth_id: 'U-ID' })).status).toBe(200);
  });
});

describe('CONTRACT §13: request bodies', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness();
  });
  afterAll(() => h?.close());

  it('takes an application/json object of strings, signed exactly like form fields', async () => {
    const res = await h.a.createAuth('J1', { auth_name: 'from JSON', auth_state: '1' }, { json: true });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ response_code: '90000', response_message: 'success' });
    expect((await h.a.getAuth('J1')).body).toMatchObject({ auth_name: 'from JSON', auth_state: '1' });
    const modified = await h.a.modifyAuth('J1', { auth_desc: 'set by JSON' }, { json: true });
    expect(modified.status).toBe(201);
    expect((await h.a.getAuth('J1')).body).toMatchObject({ auth_desc: 'set by JSON' });
  });

  it('refuses a JSON body whose signature does not cover it (401, 90401)', async () => {
    const res = await h.a.createAuth('J2', { auth_name: 'n' }, { json: true, unsigned: { auth_desc: 'slipped in' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ response_code: '90401', response_message: 'bad signature' });
  });

  it.each(['text/plain', 'application/xml'])('answers another content type (%s) with 415, 90415, and creates nothing', async (type) => {
    const res = await fetch(`${h.baseUrl}/account/v1.0.1/auths/J3`, { method: 'POST', headers: { 'Content-Type': type }, body: 'auth_name=n' });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ response_code: '90415', response_message: 'unsupported media type' });
    expect((await h.a.getAuth('J3')).status).toBe(404);
  });
});

describe('create_time / update_time in the service TZ', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { TZ: 'Asia/Shanghai' } });
    await seedAuth(h.a, 'TZ1');
  });
  afterAll(() => h?.close());

  it('formats the stored instants as YYYY-MM-DD HH:MM:SS in TZ', async () => {
    const { rows } = await h.db.query(
      `SELECT to_char(create_time AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') AS c,
              to_char(update_time AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') AS u FROM auths`,
    );
    const res = await h.a.listAuths();
    expect(res.body).toMatchObject({ count: '1', list: [{ auth_id: 'TZ1', create_time: rows[0].c, update_time: rows[0].u }] });
  });
});

describe('CONTRACT §6: rate limited', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => h?.close());

  it('answers 429, 90429 once an app is over its budget, without limiting the other app', async () => {
    for (let i = 0; i < 3; i++) expect((await h.a.listAuths()).status).toBe(200);
    const limited = await h.a.listAuths();
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ response_code: '90429', response_message: 'too many requests' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const other = await h.b.listAuths();
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ response_code: '10201', count: '0', list: [] });
  });
});
