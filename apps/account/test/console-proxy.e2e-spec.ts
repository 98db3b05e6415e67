import { TestAccountClient as AccountClient } from '@geoaccount/client/internal';
import { APP_A, APP_B, type AccountHarness, startAccountHarness } from './support/account-harness';
import { type AdminAuth, AdminClient, CONTROL_PLANE_ENV, TEST_ADMIN_TOKEN } from './support/admin-client';

/**
 * The console's session-bound proxy (docs/contract.md §12, §14): an operator's session works on
 * an app's data without the app's secret; the role decides which apps; a change needs the CSRF
 * header; the request is signed as the app with the operator's login as the `user` header, so
 * the audit trail records the operator.
 */
describe('console proxy (/console/api/{app_token}/…)', () => {
  let h: AccountHarness;
  let admin: AdminClient;
  const sessions: Record<string, AdminAuth> = {};
  const PASSWORD = 'console-operator-pw-0123';

  beforeAll(async () => {
    h = await startAccountHarness({ env: { ...CONTROL_PLANE_ENV } });
    admin = new AdminClient(h.baseUrl, { bearer: TEST_ADMIN_TOKEN });
    for (const [login, role, apps] of [
      ['cp-admin', 'admin', undefined],
      ['cp-app-admin', 'app_admin', [APP_A.appToken]],
      ['cp-auditor', 'auditor', undefined],
    ] as const) {
      const created = await admin.post('/admin/v1/operators', { login, role, password: PASSWORD, ...(apps ? { apps } : {}) });
      expect(created.status).toBe(201);
      sessions[login] = (await admin.signIn(login, PASSWORD)).auth;
    }
  });
  afterAll(() => h?.close());

  async function call(login: string | undefined, method: string, path: string, body?: Record<string, string>, csrf = true) {
    const auth = login === undefined ? {} : sessions[login]!;
    const headers: Record<string, string> = {};
    if (auth.cookie) headers.cookie = `admin_session=${auth.cookie}`;
    if (csrf && auth.csrf && method !== 'GET') headers['x-csrf-token'] = auth.csrf;
    if (body) headers['content-type'] = 'application/json';
    const res = await fetch(`${h.baseUrl}/console/api${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, text };
  }
  const appA = (rest: string) => `/${APP_A.appToken}/account/v1.0.1${rest}`;

  it('refuses a call without a session: 401 90401', async () => {
    const res = await call(undefined, 'GET', appA('/auths'));
    expect([res.status, res.body.response_code]).toEqual([401, '90401']);
  });

  it('lets an admin read and change an app, the change recorded with the operator as operator', async () => {
    const list = await call('cp-admin', 'GET', appA('/auths'));
    expect(list.status).toBe(200);
    expect(['90000', '10201']).toContain(list.body.response_code);
    const created = await call('cp-admin', 'POST', appA('/auths/PX1'), { auth_name: 'Through the console' });
    expect([created.status, created.body.response_code]).toEqual([201, '90000']);
    const events = await new AccountClient({ retries: 0, baseUrl: h.baseUrl, ...APP_A }).auditEvents({
      resource_id: 'PX1',
      action: 'create',
    });
    expect(events.body.event_list).toEqual([expect.objectContaining({ resource_type: 'auth', resource_id: 'PX1', operator: 'cp-admin' })]);
  });

  it('refuses a change without the CSRF header: 403 90403, nothing written', async () => {
    const res = await call('cp-admin', 'POST', appA('/auths/PX2'), { auth_name: 'no csrf' }, false);
    expect([res.status, res.body.response_code]).toEqual([403, '90403']);
    expect((await call('cp-admin', 'GET', appA('/auths/PX2'))).status).toBe(404);
  });

  it('lets an app_admin work on its apps only, and an auditor on no app data: 403 90403', async () => {
    expect((await call('cp-app-admin', 'POST', appA('/authgroups/GX1'), { group_name: 'own app' })).status).toBe(201);
    const other = await call('cp-app-admin', 'GET', `/${APP_B.appToken}/account/v1.0.1/auths`);
    expect([other.status, other.body.response_code]).toEqual([403, '90403']);
    const auditor = await call('cp-auditor', 'GET', appA('/users'));
    expect([auditor.status, auditor.body.response_code]).toEqual([403, '90403']);
  });

  it('answers 404 30101 for an unknown app and 404 90404 for a route the console has no business calling', async () => {
    const unknown = await call('cp-admin', 'GET', '/app-ffffffffffffffffffffffffffffffff/account/v1.0.1/auths');
    expect([unknown.status, unknown.body.response_code]).toEqual([404, '30101']);
    for (const path of [`/${APP_A.appToken}/admin/v1/apps`, `/${APP_A.appToken}/account/v1.0.1/auths/..`, `/${APP_A.appToken}`]) {
      const res = await call('cp-admin', 'GET', path);
      expect([path, res.status, res.body.response_code]).toEqual([path, 404, '90404']);
    }
  });

  it('signs as the app of the path whatever signing fields the browser sends', async () => {
    const res = await call('cp-admin', 'POST', appA('/auths/PX3'), {
      auth_name: 'x',
      app_token: APP_B.appToken,
      signature: 'f'.repeat(64),
      timestamp: '1',
    });
    expect([res.status, res.body.response_code]).toEqual([201, '90000']);
    const b = await new AccountClient({ retries: 0, baseUrl: h.baseUrl, ...APP_B }).getAuth('PX3');
    expect(b.status).toBe(404);
  });

  it('encrypts a test login password with the app key on the server, and refuses a body that is not an object of strings', async () => {
    expect(
      (await call('cp-admin', 'POST', appA('/users/px-user'), { user_name: 'PX', user_type: 'C', user_pwd: 'Px-Pass-0123!' })).status,
    ).toBe(201);
    const ok = await call('cp-admin', 'POST', appA('/users/login/px-user'), { user_pwd: 'Px-Pass-0123!' });
    expect([ok.status, ok.body.response_code, ok.body.user_login_id]).toEqual([200, '90000', 'px-user']);
    const wrong = await call('cp-admin', 'POST', appA('/users/login/px-user'), { user_pwd: 'wrong-password' });
    expect([wrong.status, wrong.body.response_code]).toEqual([401, '20441']);
    const notObject = await fetch(`${h.baseUrl}/console/api${appA('/auths/PX4')}`, {
      method: 'POST',
      headers: {
        cookie: `admin_session=${sessions['cp-admin']!.cookie}`,
        'x-csrf-token': sessions['cp-admin']!.csrf!,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ auth_name: 1 }),
    });
    expect([notObject.status, ((await notObject.json()) as Record<string, unknown>).response_code]).toEqual([400, '90100']);
  });

  it('never answers the app secret or AES key', async () => {
    const res = await call('cp-admin', 'GET', appA('/users/px-user'));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(APP_A.secret);
    expect(res.text).not.toContain(APP_A.aesKey);
  });
});
