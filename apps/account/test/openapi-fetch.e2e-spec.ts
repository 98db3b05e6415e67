import createClient from 'openapi-fetch';
import type { AccountPaths } from '@geoaccount/client';
import { accountSigning } from '@geoaccount/client/openapi-fetch';
import { fetchVia } from '@geoaccount/testing';
import { APP_A, type AccountHarness, startAccountHarness } from './support/account-harness';

/**
 * A client generated from docs/openapi/account.json (openapi-typescript's types, openapi-fetch)
 * with the SDK's signing middleware: no placeholder field, the signature in the X-… headers.
 */
describe('openapi-fetch with @geoaccount/client/openapi-fetch', () => {
  let h: AccountHarness;
  let api: ReturnType<typeof createClient<AccountPaths>>;

  beforeAll(async () => {
    h = await startAccountHarness();
    api = createClient<AccountPaths>({ baseUrl: h.baseUrl, fetch: fetchVia(h.baseUrl) });
    api.use(accountSigning({ appToken: APP_A.appToken, secret: APP_A.secret, nonce: true }));
  });
  afterAll(() => h?.close());

  it('creates, modifies and reads an auth, urlencoded and JSON bodies, with path ids signed', async () => {
    const created = await api.POST('/account/v1.0.1/auths/{auth_id}', {
      params: { path: { auth_id: 'OF-1' } },
      body: { auth_name: 'Orders', auth_state: '1' },
      bodySerializer: (body) => new URLSearchParams(body as Record<string, string>),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ response_code: '90000', response_message: 'success' });
    const json = await api.POST('/account/v1.0.1/auths/{auth_id}', { params: { path: { auth_id: 'OF-2' } }, body: { auth_name: 'JSON', parent_auth_id: 'OF-1' } });
    expect(json.response.status).toBe(201);
    const modified = await api.PUT('/account/v1.0.1/auths/{auth_id}', { params: { path: { auth_id: 'OF-1' } }, body: { auth_desc: 'all orders' } });
    expect(modified.response.status).toBe(201);
    const read = await api.GET('/account/v1.0.1/auths/{auth_id}', { params: { path: { auth_id: 'OF-1' } } });
    expect(read.data).toMatchObject({ response_code: '90000', auth_id: 'OF-1', auth_desc: 'all orders', auth_state: '1' });
    const list = await api.GET('/account/v1.0.1/auths', { params: { query: { auth_ids: 'OF-1,OF-2' } } });
    expect(list.data?.count).toBe('2');
  });

  it('signs the user header, which the audit trail records as operator', async () => {
    const res = await api.POST('/account/v1.0.1/authgroups/{group_id}', {
      params: { path: { group_id: 'OF-G' }, header: { user: 'ops-dana' } },
      body: { group_name: 'G', group_auths: 'OF-1' },
    });
    expect(res.response.status).toBe(201);
    const { rows } = await h.db.query(`SELECT operator FROM audit_events WHERE resource_id = 'OF-G'`);
    expect(rows).toEqual([{ operator: 'ops-dana' }]);
  });

  it('answers a failure typed by its status', async () => {
    const missing = await api.GET('/account/v1.0.1/users/{user_login_id}', { params: { path: { user_login_id: 'nobody' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ response_code: '20301', response_message: 'query succeeded, no data' });
    const unsigned = createClient<AccountPaths>({ baseUrl: h.baseUrl });
    const refused = await unsigned.GET('/account/v1.0.1/auths');
    expect(refused.response.status).toBe(401);
  });
});
