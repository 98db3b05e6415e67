import { DEFAULT_USER_FILTER } from '../src/config/directory.config';
import { type AccountHarness, startAccountHarness } from './support/account-harness';
import { AdminClient, CONTROL_PLANE_ENV, TEST_ADMIN_TOKEN } from './support/admin-client';
import { LDAP, PrivateSlapd } from './support/slapd';

/** Directory operators (docs/contract.md §14): search-then-bind against the `LDAP_*` directory of §9. */
describe('admin API directory operators', () => {
  let slapd: PrivateSlapd;
  let h: AccountHarness;
  let admin: AdminClient;

  beforeAll(async () => {
    slapd = await PrivateSlapd.start();
    h = await startAccountHarness({
      env: CONTROL_PLANE_ENV,
      directories: {
        byApp: new Map(),
        fallback: {
          urls: [slapd.url],
          bindDn: LDAP.bindDn,
          bindPassword: LDAP.bindPassword,
          userBaseDn: LDAP.suffix,
          userFilter: DEFAULT_USER_FILTER,
          startTls: false,
          timeoutMs: 3000,
        },
      },
    });
    admin = new AdminClient(h.baseUrl, { bearer: TEST_ADMIN_TOKEN });
  });
  afterAll(async () => {
    await h?.close();
    await slapd?.close();
  });

  it('signs a directory operator in with its directory password, never with a stored one', async () => {
    const created = await admin.post('/admin/v1/operators', { login: 'alice', role: 'auditor', directory: true });
    expect([created.status, created.body.directory]).toEqual([201, true]);
    const ok = await admin.with({}).post('/admin/v1/sessions', { login: 'alice', password: LDAP.users.alice });
    expect([ok.status, ok.body.operator, ok.body.role]).toEqual([201, 'alice', 'auditor']);
    const wrong = await admin.with({}).post('/admin/v1/sessions', { login: 'alice', password: 'not-her-password' });
    expect([wrong.status, wrong.body.response_code]).toEqual([401, '90401']);
    const blank = await admin.with({}).post('/admin/v1/sessions', { login: 'alice', password: '' });
    expect([blank.status, blank.body.response_code]).toEqual([401, '90401']);
    // In the directory but not an operator: refused like an unknown login.
    const dave = await admin.with({}).post('/admin/v1/sessions', { login: 'dave', password: LDAP.users.dave });
    expect([dave.status, dave.body.response_code]).toEqual([401, '90401']);
    const withPassword = await admin.patch('/admin/v1/operators/alice', { password: 'a stored password' });
    expect([withPassword.status, withPassword.body.response_code]).toEqual([400, '90100']);
  });
});
