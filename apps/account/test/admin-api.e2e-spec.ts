import { AccountClient } from '@geoaccount/client';
import { APP_A, type AccountHarness, startAccountHarness } from './support/account-harness';
import { AdminClient, CONTROL_PLANE_ENV, TEST_ADMIN_TOKEN } from './support/admin-client';

/** The admin API on the wire (docs/contract.md §14): status, code and body of each route and refusal. */
describe('admin API', () => {
  let h: AccountHarness;
  let admin: AdminClient;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { ...CONTROL_PLANE_ENV, LOGIN_MAX_FAILURES: '3' } });
    admin = new AdminClient(h.baseUrl, { bearer: TEST_ADMIN_TOKEN });
  });
  afterAll(() => h?.close());

  const signedClient = (appToken: string, secret: string, aesKey: string, aesMode: 'gcm' | 'ecb' = 'gcm') =>
    new AccountClient({ retries: 0, baseUrl: h.baseUrl, appToken, secret, aesKey, aesMode });

  it('creates an app whose credential signs requests at once, and lists it without secrets', async () => {
    const created = await admin.post('/admin/v1/apps', { app_name: 'Orders' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      response_code: '90000',
      app_name: 'Orders',
      aes_mode: 'gcm',
      state: 'enabled',
      source: 'api',
      credential: { credential_id: expect.stringMatching(/^cred-[0-9a-f]{24}$/) },
    });
    expect(created.body.app_token).toMatch(/^app-[0-9a-f]{32}$/);
    expect(created.body.credentials).toEqual([
      { credential_id: created.body.credential.credential_id, create_time: expect.any(String), state: 'active', expire_time: '', last_used_time: '' },
    ]);
    const { app_token, credential } = created.body;
    const client = signedClient(app_token, credential.secret, credential.aes_key);
    const res = await client.createAuth('CP1', { auth_name: 'From the control plane' });
    expect([res.status, res.body.response_code]).toEqual([201, '90000']);

    const list = await admin.get('/admin/v1/apps');
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(String(list.body.app_list.length));
    const listed = list.body.app_list.find((a: { app_token: string }) => a.app_token === app_token);
    expect(listed).toMatchObject({ app_name: 'Orders', source: 'api' });
    expect(JSON.stringify(list.body)).not.toContain(credential.secret);
    expect(JSON.stringify(list.body)).not.toContain(credential.aes_key);
    // APP_CREDENTIALS apps are listed read-only.
    expect(list.body.app_list.find((a: { app_token: string }) => a.app_token === APP_A.appToken)).toMatchObject({ source: 'config', credentials: [] });
  });

  it('answers the codes of §14 for bad input', async () => {
    expect((await admin.get('/admin/v1/apps/app-ffffffffffffffffffffffffffffffff')).body.response_code).toBe('30101');
    const r404 = await admin.get('/admin/v1/apps/app-ffffffffffffffffffffffffffffffff');
    expect([r404.status, r404.body.response_code]).toEqual([404, '30101']);
    const config = await admin.patch(`/admin/v1/apps/${APP_A.appToken}`, { state: 'disabled' });
    expect([config.status, config.body.response_code]).toEqual([409, '30130']);
    const configCred = await admin.post(`/admin/v1/apps/${APP_A.appToken}/credentials`, {});
    expect([configCred.status, configCred.body.response_code]).toEqual([409, '30130']);
    const longName = await admin.post('/admin/v1/apps', { app_name: 'x'.repeat(65) });
    expect([longName.status, longName.body.response_code, longName.body.response_message]).toEqual([400, '90100', 'too long app_name']);
    const noName = await admin.post('/admin/v1/apps', {});
    expect([noName.status, noName.body.response_code, noName.body.response_message]).toEqual([400, '90100', 'missing app_name']);
    const badMode = await admin.post('/admin/v1/apps', { app_name: 'x', aes_mode: 'cbc' });
    expect([badMode.status, badMode.body.response_code, badMode.body.response_message]).toEqual([400, '90100', 'bad value of aes_mode']);
    const unknown = await admin.post('/admin/v1/apps', { app_name: 'x', secret: 'mine' });
    expect([unknown.status, unknown.body.response_code, unknown.body.response_message]).toEqual([400, '90100', 'unknown field secret']);
    const shortPwd = await admin.post('/admin/v1/operators', { login: 'eleven', role: 'auditor', password: '12345678901' });
    expect([shortPwd.status, shortPwd.body.response_code]).toEqual([400, '90100']);
    expect(shortPwd.body.response_message).toContain('password');
    const noPwd = await admin.post('/admin/v1/operators', { login: 'nopwd', role: 'auditor' });
    expect([noPwd.status, noPwd.body.response_code, noPwd.body.response_message]).toEqual([400, '90100', 'missing password']);
    const missingOp = await admin.get('/admin/v1/operators/nobody');
    expect([missingOp.status, missingOp.body.response_code]).toEqual([404, '30301']);
    const missingPatch = await admin.patch('/admin/v1/operators/nobody', { state: 'enabled' });
    expect([missingPatch.status, missingPatch.body.response_code]).toEqual([404, '30301']);
    const wrongBearer = await admin.with({ bearer: 'x'.repeat(40) }).get('/admin/v1/apps');
    expect([wrongBearer.status, wrongBearer.body.response_code]).toEqual([401, '90401']);
    const none = await admin.with({}).get('/admin/v1/apps');
    expect([none.status, none.body.response_code]).toEqual([401, '90401']);
    const form = await admin.call('POST', '/admin/v1/apps', 'app_name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect([form.status, form.body.response_code]).toEqual([415, '90415']);
    const badJson = await admin.call('POST', '/admin/v1/apps', '{"app_name":');
    expect([badJson.status, badJson.body.response_code]).toEqual([400, '90100']);
  });

  it('keeps at most two active credentials, retires the other after retire_others_in, revokes', async () => {
    const { body: app } = await admin.post('/admin/v1/apps', { app_name: 'Rotation', aes_mode: 'ecb' });
    const path = `/admin/v1/apps/${app.app_token}/credentials`;
    for (const bad of [59, 2592001, '600', 1.5]) {
      const res = await admin.post(path, { retire_others_in: bad });
      expect([res.status, res.body.response_code, res.body.response_message]).toEqual([400, '90100', 'invalid retire_others_in']);
    }
    const second = await admin.post(path, { retire_others_in: 60 });
    expect(second.status).toBe(201);
    expect(Object.keys(second.body).sort()).toEqual(['aes_key', 'credential_id', 'response_code', 'response_message', 'secret']);
    const third = await admin.post(path, {});
    expect([third.status, third.body.response_code]).toEqual([409, '30120']);
    const read = await admin.get(`/admin/v1/apps/${app.app_token}`);
    const first = read.body.credentials.find((c: { credential_id: string }) => c.credential_id === app.credential.credential_id);
    expect(first.state).toBe('active');
    expect(first.expire_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Both sign until the first one expires.
    for (const c of [app.credential, second.body]) {
      const res = await signedClient(app.app_token, c.secret, c.aes_key, 'ecb').listAuths();
      expect(res.status).toBe(200);
    }
    const missing = await admin.delete(`${path}/cred-000000000000000000000000`);
    expect([missing.status, missing.body.response_code]).toEqual([404, '30201']);
    const revoked = await admin.delete(`${path}/${second.body.credential_id}`);
    expect([revoked.status, revoked.body.response_code]).toEqual([200, '90000']);
    const res = await signedClient(app.app_token, second.body.secret, second.body.aes_key, 'ecb').listAuths();
    expect([res.status, res.body.response_code]).toEqual([401, '90401']);
    const after = await admin.get(`/admin/v1/apps/${app.app_token}`);
    expect(after.body.credentials.map((c: { state: string }) => c.state)).toEqual(['active', 'revoked']);
  });

  it('decrypts the login password with the AES key of the credential that signed', async () => {
    const { body: app } = await admin.post('/admin/v1/apps', { app_name: 'Logins' });
    const { body: second } = await admin.post(`/admin/v1/apps/${app.app_token}/credentials`, {});
    const one = signedClient(app.app_token, app.credential.secret, app.credential.aes_key);
    const two = signedClient(app.app_token, second.secret, second.aes_key);
    expect((await one.registerUser('u1', { user_name: 'U', user_type: 'C', user_pwd: 'P@ssw0rd!' })).status).toBe(201);
    expect((await one.login('u1', 'P@ssw0rd!')).status).toBe(200);
    expect((await two.login('u1', 'P@ssw0rd!')).status).toBe(200);
    // The other credential's AES key does not decrypt it: the secret of one, the key of the other.
    const mixed = signedClient(app.app_token, second.secret, app.credential.aes_key);
    expect((await mixed.login('u1', 'P@ssw0rd!')).body.response_code).toBe('90101');
  });

  it('a disabled app is refused, an enabled one served again', async () => {
    const { body: app } = await admin.post('/admin/v1/apps', { app_name: 'Toggle' });
    const client = signedClient(app.app_token, app.credential.secret, app.credential.aes_key);
    const off = await admin.patch(`/admin/v1/apps/${app.app_token}`, { state: 'disabled', app_name: 'Toggled' });
    expect([off.status, off.body.state, off.body.app_name]).toEqual([200, 'disabled', 'Toggled']);
    expect((await client.listAuths()).status).toBe(401);
    await admin.patch(`/admin/v1/apps/${app.app_token}`, { state: 'enabled' });
    expect((await client.listAuths()).status).toBe(200);
  });

  it('signs operators in with a cookie and a CSRF token, locks after failures, unlocks on enable', async () => {
    const created = await admin.post('/admin/v1/operators', { login: 'ops@corp', role: 'auditor', password: 'correct horse battery' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ login: 'ops@corp', role: 'auditor', apps: [], state: 'enabled', directory: false, locked: false });
    expect(JSON.stringify(created.body)).not.toMatch(/password|argon/);
    const exists = await admin.post('/admin/v1/operators', { login: 'ops@corp', role: 'auditor', password: 'correct horse battery' });
    expect([exists.status, exists.body.response_code]).toEqual([409, '30310']);

    const res = await admin.with({}).post('/admin/v1/sessions', { login: 'ops@corp', password: 'correct horse battery' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ response_code: '90000', response_message: 'success', operator: 'ops@corp', role: 'auditor', apps: [] });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^admin_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('Secure'); // served on loopback
    const session = await admin.signIn('ops@corp', 'correct horse battery');
    expect((await session.get('/admin/v1/apps')).status).toBe(200);
    const current = await session.get('/admin/v1/sessions/current');
    expect(current.body).toMatchObject({ operator: 'ops@corp', role: 'auditor' });
    expect(current.headers.get('x-csrf-token')).toBe(session.auth.csrf);
    // A change with the cookie but without the CSRF header is refused before the role is looked at.
    const noCsrf = await session.with({ cookie: session.auth.cookie }).delete('/admin/v1/sessions/current');
    expect([noCsrf.status, noCsrf.body.response_code]).toEqual([403, '90403']);
    const out = await session.delete('/admin/v1/sessions/current');
    expect([out.status, out.body.response_code]).toEqual([200, '90000']);
    expect((await session.get('/admin/v1/apps')).status).toBe(401);

    // Wrong password and unknown login: the same 401 90401; the third failure locks (LOGIN_MAX_FAILURES=3).
    for (const [login, password] of [
      ['ops@corp', 'wrong password!'],
      ['nobody', 'wrong password!'],
    ]) {
      const r = await admin.with({}).post('/admin/v1/sessions', { login, password });
      expect([r.status, r.body.response_code]).toEqual([401, '90401']);
    }
    for (let i = 0; i < 2; i++) await admin.with({}).post('/admin/v1/sessions', { login: 'ops@corp', password: 'wrong password!' });
    const locked = await admin.with({}).post('/admin/v1/sessions', { login: 'ops@corp', password: 'correct horse battery' });
    expect([locked.status, locked.body.response_code]).toEqual([403, '30402']);
    expect((await admin.get('/admin/v1/operators/ops%40corp')).body.locked).toBe(true);
    const enabled = await admin.patch('/admin/v1/operators/ops@corp', { state: 'enabled' });
    expect([enabled.status, enabled.body.locked]).toEqual([200, false]);
    expect((await admin.with({}).post('/admin/v1/sessions', { login: 'ops@corp', password: 'correct horse battery' })).status).toBe(201);

    // Disabled: refused at sign-in like a wrong password, and its sessions end.
    const live = await admin.signIn('ops@corp', 'correct horse battery');
    await admin.patch('/admin/v1/operators/ops@corp', { state: 'disabled' });
    expect((await live.get('/admin/v1/apps')).status).toBe(401);
    const disabled = await admin.with({}).post('/admin/v1/sessions', { login: 'ops@corp', password: 'correct horse battery' });
    expect([disabled.status, disabled.body.response_code]).toEqual([401, '90401']);
  });

  it('ends a session after 30 idle minutes; a request within them keeps it alive', async () => {
    await admin.post('/admin/v1/operators', { login: 'idle', role: 'auditor', password: 'idle operator pw' });
    const session = await admin.signIn('idle', 'idle operator pw');
    const idleFor = (minutes: number) =>
      h.db.query(`UPDATE admin_sessions SET last_seen_time = now() - make_interval(mins => $1) WHERE login = 'idle'`, [minutes]);
    await idleFor(29);
    expect((await session.get('/admin/v1/apps')).status).toBe(200);
    const { rows } = await h.db.query<{ idle: number }>(
      `SELECT extract(epoch FROM now() - last_seen_time)::float8 AS idle FROM admin_sessions WHERE login = 'idle'`,
    );
    expect(rows[0]!.idle).toBeLessThan(60); // seen again: the idle time starts over
    await idleFor(31);
    const expired = await session.get('/admin/v1/apps');
    expect([expired.status, expired.body.response_code]).toEqual([401, '90401']);
    // The session token as a bearer (no CSRF header needed), then gone with DELETE.
    const other = await admin.signIn('idle', 'idle operator pw');
    const bearer = admin.with({ bearer: other.auth.cookie });
    expect((await bearer.patch('/admin/v1/apps/app-ffffffffffffffffffffffffffffffff', {})).body.response_code).toBe('90403');
    expect((await bearer.delete('/admin/v1/sessions/current')).status).toBe(200);
    expect((await bearer.get('/admin/v1/apps')).status).toBe(401);
  });

  it('unlocks a user login id of an app, 404 30401 when not locked', async () => {
    const demo = signedClient(APP_A.appToken, APP_A.secret, APP_A.aesKey);
    expect((await demo.registerUser('locked-user', { user_name: 'L', user_type: 'C', user_pwd: 'P@ssw0rd!' })).status).toBe(201);
    for (let i = 0; i < 3; i++) await demo.login('locked-user', 'wrong');
    expect((await demo.login('locked-user', 'P@ssw0rd!')).body.response_code).toBe('20443');
    const unlocked = await admin.delete(`/admin/v1/apps/${APP_A.appToken}/lockouts/locked-user`);
    expect([unlocked.status, unlocked.body.response_code]).toEqual([200, '90000']);
    expect((await demo.login('locked-user', 'P@ssw0rd!')).status).toBe(200);
    const again = await admin.delete(`/admin/v1/apps/${APP_A.appToken}/lockouts/locked-user`);
    expect([again.status, again.body.response_code]).toEqual([404, '30401']);
    const noApp = await admin.delete(`/admin/v1/apps/app-ffffffffffffffffffffffffffffffff/lockouts/locked-user`);
    expect([noApp.status, noApp.body.response_code]).toEqual([404, '30101']);
  });

  it('records admin changes and sign-ins as events readable through the admin API only', async () => {
    const page = await admin.get('/admin/v1/audit-events?resource_type=app&action=create');
    expect(page.status).toBe(200);
    expect(page.body.event_list[0]).toMatchObject({ resource_type: 'app', action: 'create', operator: 'admin', result_code: '90000' });
    const sessions = await admin.get('/admin/v1/audit-events?app_token=&resource_type=session');
    expect(sessions.body.event_list.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['login', 'login_failed']),
    );
    expect(sessions.body.event_list.every((e: { app_token: string; operator: string }) => e.app_token === '' && e.operator !== '')).toBe(true);
    const revokes = await admin.get('/admin/v1/audit-events?resource_type=credential&action=revoke');
    expect(revokes.body.event_list).toHaveLength(1);
    // Interface 207 answers only the app's own data.
    const demo = signedClient(APP_A.appToken, APP_A.secret, APP_A.aesKey);
    const own = await demo.auditEvents();
    expect(own.status).toBe(200);
    const types = new Set((own.body as { event_list: { resource_type: string }[] }).event_list.map((e) => e.resource_type));
    for (const t of types) expect(['auth', 'auth_group', 'user']).toContain(t);
    const badType = await admin.get('/admin/v1/audit-events?resource_type=nothing');
    expect([badType.status, badType.body.response_code]).toEqual([400, '90100']);
  });
});

/** docs/contract.md §1: operator sign-ins count toward LOGIN_RATE_LIMIT_PER_MINUTE, under the app "". */
describe('admin sign-ins under the login rate limit', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    // 30 a minute: a burst of one, then one every two seconds.
    h = await startAccountHarness({ env: { ...CONTROL_PLANE_ENV, LOGIN_RATE_LIMIT_PER_MINUTE: '30' } });
  });
  afterAll(() => h?.close());

  const signIn = (login: string) =>
    fetch(`${h.baseUrl}/admin/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login, password: 'not-the-password' }),
    });

  it('answers 429 90429 with Retry-After past the budget, before any password work', async () => {
    const first = await signIn('nobody-1');
    expect([first.status, ((await first.json()) as { response_code: string }).response_code]).toEqual([401, '90401']);
    const second = await signIn('nobody-2');
    expect(second.status).toBe(429);
    expect(await second.json()).toEqual({ response_code: '90429', response_message: 'too many requests' });
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
