import { servedRoutes } from '@geoaccount/http';
import { type AccountHarness, startAccountHarness } from './support/account-harness';
import { type AdminAnswer, AdminClient, CONTROL_PLANE_ENV, TEST_ADMIN_TOKEN } from './support/admin-client';

type Who = 'admin' | 'app_admin (own app)' | 'app_admin (other app)' | 'auditor' | 'no auth';
const WHO: Who[] = ['admin', 'app_admin (own app)', 'app_admin (other app)', 'auditor', 'no auth'];

interface Route {
  name: string;
  call: (c: AdminClient, app: string, credential: string) => Promise<AdminAnswer>;
  /** Who may call it (docs/contract.md §14); the others get 403 90403 (no auth: 401 90401). */
  allowed: Who[];
}

const ALL_SIGNED_IN: Who[] = ['admin', 'app_admin (own app)', 'app_admin (other app)', 'auditor'];

/** Every admin route, called so that an allowed call changes nothing the next ones need. */
const ROUTES: Route[] = [
  { name: 'POST /admin/v1/apps', call: (c) => c.post('/admin/v1/apps', { app_name: 'Matrix' }), allowed: ['admin'] },
  { name: 'GET /admin/v1/apps', call: (c) => c.get('/admin/v1/apps'), allowed: ALL_SIGNED_IN },
  { name: 'GET /admin/v1/apps/{app_token}', call: (c, app) => c.get(`/admin/v1/apps/${app}`), allowed: ['admin', 'app_admin (own app)', 'auditor'] },
  { name: 'PATCH /admin/v1/apps/{app_token}', call: (c, app) => c.patch(`/admin/v1/apps/${app}`, {}), allowed: ['admin'] },
  {
    name: 'POST /admin/v1/apps/{app_token}/credentials',
    call: (c, app) => c.post(`/admin/v1/apps/${app}/credentials`, {}),
    allowed: ['admin', 'app_admin (own app)'],
  },
  {
    name: 'DELETE /admin/v1/apps/{app_token}/credentials/{credential_id}',
    call: (c, app) => c.delete(`/admin/v1/apps/${app}/credentials/cred-000000000000000000000000`),
    allowed: ['admin', 'app_admin (own app)'],
  },
  {
    name: 'DELETE /admin/v1/apps/{app_token}/lockouts/{user_login_id}',
    call: (c, app) => c.delete(`/admin/v1/apps/${app}/lockouts/nobody`),
    allowed: ['admin', 'app_admin (own app)'],
  },
  {
    name: 'POST /admin/v1/operators',
    call: (c) => c.post('/admin/v1/operators', { login: 'auditor-1', role: 'auditor', password: 'auditor password 1' }),
    allowed: ['admin'],
  },
  { name: 'GET /admin/v1/operators', call: (c) => c.get('/admin/v1/operators'), allowed: ['admin', 'auditor'] },
  { name: 'GET /admin/v1/operators/{login}', call: (c) => c.get('/admin/v1/operators/auditor-1'), allowed: ['admin', 'auditor'] },
  { name: 'PATCH /admin/v1/operators/{login}', call: (c) => c.patch('/admin/v1/operators/auditor-1', {}), allowed: ['admin'] },
  {
    name: 'GET /admin/v1/audit-events?app_token={app_token}',
    call: (c, app) => c.get(`/admin/v1/audit-events?app_token=${app}`),
    allowed: ['admin', 'app_admin (own app)', 'auditor'],
  },
  { name: 'GET /admin/v1/audit-events', call: (c) => c.get('/admin/v1/audit-events'), allowed: ALL_SIGNED_IN },
  { name: 'GET /admin/v1/sessions/current', call: (c) => c.get('/admin/v1/sessions/current'), allowed: ALL_SIGNED_IN },
  { name: 'DELETE /admin/v1/sessions/current', call: (c) => c.delete('/admin/v1/sessions/current'), allowed: ALL_SIGNED_IN },
];

/** The role matrix of docs/contract.md §14: every admin route × every role, allowed or 403 90403. */
describe('admin API roles', () => {
  let h: AccountHarness;
  let app: string;
  const clients = new Map<Who, () => Promise<AdminClient>>();

  beforeAll(async () => {
    h = await startAccountHarness({ env: CONTROL_PLANE_ENV });
    const admin = new AdminClient(h.baseUrl, { bearer: TEST_ADMIN_TOKEN });
    app = (await admin.post('/admin/v1/apps', { app_name: 'Own' })).body.app_token;
    const other = (await admin.post('/admin/v1/apps', { app_name: 'Other' })).body.app_token;
    const operators: [string, Record<string, unknown>][] = [
      ['matrix-admin', { role: 'admin' }],
      ['matrix-own', { role: 'app_admin', apps: [app] }],
      ['matrix-other', { role: 'app_admin', apps: [other] }],
      ['matrix-auditor', { role: 'auditor' }],
    ];
    for (const [login, fields] of operators) {
      const res = await admin.post('/admin/v1/operators', { login, password: `${login} password`, ...fields });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    }
    // A fresh session per call: DELETE /sessions/current ends it.
    const session = (login: string) => () => admin.signIn(login, `${login} password`);
    clients.set('admin', session('matrix-admin'));
    clients.set('app_admin (own app)', session('matrix-own'));
    clients.set('app_admin (other app)', session('matrix-other'));
    clients.set('auditor', session('matrix-auditor'));
    clients.set('no auth', async () => admin.with({}));
  });
  afterAll(() => h?.close());

  it.each(ROUTES.map((r) => [r.name, r] as const))('%s', async (_name, route) => {
    const seen: string[] = [];
    for (const who of WHO) {
      const res = await route.call(await clients.get(who)!(), app, '');
      seen.push(`${who}: ${res.status} ${String(res.body?.response_code)}`);
      if (who === 'no auth') expect([who, res.status, res.body.response_code]).toEqual([who, 401, '90401']);
      else if (route.allowed.includes(who)) expect([who, [401, 403].includes(res.status)]).toEqual([who, false]);
      else expect([who, res.status, res.body.response_code]).toEqual([who, 403, '90403']);
    }
    process.stdout.write(`${route.name}\n  ${seen.join('\n  ')}\n`);
  });

  it('lists every admin route the service serves (the sign-in, open to all, aside)', () => {
    const served = servedRoutes(h.app)
      .filter((r) => r.path.startsWith('/admin/') && !(r.method === 'POST' && r.path === '/admin/v1/sessions'))
      .map((r) => `${r.method} ${r.path}`);
    const listed = new Set(ROUTES.map((r) => r.name.split('?')[0]));
    expect(served.filter((r) => !listed.has(r))).toEqual([]);
    expect(served.length).toBeGreaterThanOrEqual(14);
  });

  it('an app_admin lists only its apps and reads only their events', async () => {
    const own = await clients.get('app_admin (own app)')!();
    const list = await own.get('/admin/v1/apps');
    expect(list.body.app_list.map((a: { app_token: string }) => a.app_token)).toEqual([app]);
    const events = await own.get('/admin/v1/audit-events');
    expect(events.status).toBe(200);
    expect(new Set(events.body.event_list.map((e: { app_token: string }) => e.app_token))).toEqual(new Set([app]));
  });

  it('an auditor reads apps without any secret and changes nothing', async () => {
    const auditor = await clients.get('auditor')!();
    const read = await auditor.get(`/admin/v1/apps/${app}`);
    expect(read.status).toBe(200);
    expect(Object.keys(read.body.credentials[0]).sort()).toEqual(['create_time', 'credential_id', 'expire_time', 'last_used_time', 'state']);
  });
});
