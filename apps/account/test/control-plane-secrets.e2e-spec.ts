/**
 * docs/contract.md §14: a credential's secret and AES key appear only in the answer that issues
 * it and in GET /internal/v1/apps - never in a log line (at debug level), an audit event, an
 * error, another answer, the OpenAPI document or the database in clear. The compiled service in
 * production mode, started on the control plane alone (no APP_CREDENTIALS, §1).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Pool } from 'pg';
import { TestAccountClient as AccountClient } from '@geoaccount/client/internal';
import { type ServiceProcess, buildService, startServiceProcess } from '@geoaccount/testing';
import { type AdminAnswer, AdminClient, TEST_ADMIN_TOKEN, TEST_INTERNAL_TOKEN } from './support/admin-client';
import { createTestDatabase, dropTestDatabase } from './support/database';

describe('control plane secrets', () => {
  let database: { name: string; url: string };
  let service: ServiceProcess | undefined;
  let db: Pool;

  beforeAll(async () => {
    const main = buildService(resolve(__dirname, '..'));
    database = await createTestDatabase();
    db = new Pool({ connectionString: database.url, max: 2 });
    service = await startServiceProcess(main, {
      DATABASE_URL: database.url,
      NODE_ENV: 'production',
      PII_KEYS: JSON.stringify([{ id: 'k1', key: randomBytes(32).toString('base64') }]),
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
      CREDENTIAL_USE_FLUSH_SECONDS: '1',
      LOG_LEVEL: 'debug',
    });
  }, 300_000);
  afterAll(async () => {
    await service?.stop();
    await db?.end();
    if (database) await dropTestDatabase(database.name);
  });

  it('shows a secret or AES key only in the issuing answer and GET /internal/v1/apps', async () => {
    const running = service!;
    const admin = new AdminClient(running.url, { bearer: TEST_ADMIN_TOKEN });
    /** Every answer but the issuing ones and the internal apps list. */
    const answers: AdminAnswer[] = [];
    const keep = async (p: Promise<AdminAnswer>) => {
      const res = await p;
      answers.push(res);
      return res;
    };

    const { body: app } = await admin.post('/admin/v1/apps', { app_name: 'Secrets' });
    const { body: second } = await admin.post(`/admin/v1/apps/${app.app_token}/credentials`, { retire_others_in: 600 });
    const secrets = [app.credential.secret, app.credential.aes_key, second.secret, second.aes_key];

    // Used on the signed API: a user registered and logged in with each credential.
    for (const c of [app.credential, second]) {
      const client = new AccountClient({ retries: 0, baseUrl: running.url, appToken: app.app_token, secret: c.secret, aesKey: c.aes_key, aesMode: 'gcm' });
      const id = `u-${c.credential_id}`;
      expect((await client.registerUser(id, { user_name: 'U', user_type: 'C', user_pwd: 'P@ssw0rd!' })).status).toBe(201);
      expect((await client.login(id, 'P@ssw0rd!')).status).toBe(200);
      expect((await client.login(id, 'wrong')).status).toBe(401);
      expect((await client.listAuths({}, { headers: { authorization: `Bearer ${c.secret}` } })).status).toBe(200);
    }
    // A wrong one, and a secret sent where it does not belong.
    const wrong = new AccountClient({ retries: 0, baseUrl: running.url, appToken: app.app_token, secret: `${app.credential.secret}x`, aesKey: 'k', aesMode: 'gcm' });
    expect((await wrong.listAuths()).status).toBe(401);
    await keep(admin.post('/admin/v1/apps', { app_name: 'x', secret: app.credential.secret }));
    await keep(admin.post(`/admin/v1/apps/${app.app_token}/credentials`, {}));
    await keep(admin.with({ bearer: app.credential.secret }).get('/admin/v1/apps'));

    const internal = await admin.with({ bearer: TEST_INTERNAL_TOKEN }).get('/internal/v1/apps');
    expect(JSON.stringify(internal.body)).toContain(second.secret);
    await keep(admin.with({ bearer: app.credential.secret }).get('/internal/v1/apps'));

    await keep(admin.post('/admin/v1/operators', { login: 'op', role: 'auditor', password: 'operator password 1' }));
    const auditor = await admin.signIn('op', 'operator password 1');
    await keep(auditor.get('/admin/v1/apps'));
    await keep(auditor.get(`/admin/v1/apps/${app.app_token}`));
    await keep(admin.delete(`/admin/v1/apps/${app.app_token}/credentials/${app.credential.credential_id}`));
    await keep(admin.patch(`/admin/v1/apps/${app.app_token}`, { state: 'disabled' }));
    await new Promise((r) => setTimeout(r, 1500)); // a use flush
    await keep(admin.get('/admin/v1/apps'));
    for (let after = ''; ; ) {
      const page = await keep(admin.get(`/admin/v1/audit-events?page_size=1000${after ? `&after_event_id=${after}` : ''}`));
      after = page.body.next_event_id;
      if (!after) break;
    }
    await keep(admin.get('/docs-json'));

    running.child.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 0, signal: null });
    const log = running.output();
    expect(log).toContain('/admin/v1/apps');
    const events = (await db.query(`SELECT * FROM audit_events`)).rows;
    expect(events.filter((e: { resource_type: string }) => e.resource_type === 'credential').length).toBeGreaterThanOrEqual(3);
    const stored = (await db.query(`SELECT * FROM app_credentials`)).rows;
    expect(stored.every((r: { secret: string; aes_key: string; key_id: string }) => r.secret.startsWith('v1:k1:') && r.aes_key.startsWith('v1:k1:') && r.key_id === 'k1')).toBe(true);
    const openapi = readFileSync(resolve(__dirname, '../../../docs/openapi/account.json'), 'utf8');

    const places: [string, string][] = [
      ['log', log],
      ['audit events', JSON.stringify(events)],
      ['stored credentials', JSON.stringify(stored)],
      ['answers', JSON.stringify(answers.map((a) => a.body))],
      ['OpenAPI document', openapi],
    ];
    for (const [where, text] of places) for (const secret of secrets) expect([where, text.includes(secret)]).toEqual([where, false]);
    expect(log).not.toContain(TEST_ADMIN_TOKEN);
    expect(log).not.toContain(TEST_INTERNAL_TOKEN);
    expect(log).not.toContain('operator password 1');
  }, 120_000);
});
