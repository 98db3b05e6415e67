import { documentedRoutes, servedRoutes } from '@geoaccount/http';
import { MIGRATIONS } from '../src/database/migrations';
import { type AccountHarness, listenAccountApp, startAccountHarness } from './support/account-harness';
import { createTestDatabase, dropTestDatabase } from './support/database';
import { startPrivatePostgres } from './support/private-postgres';

/** One series' value in Prometheus text, by name and labels. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const got = Object.fromEntries(
      [...line.slice(name.length + 1, line.lastIndexOf('}')).matchAll(/(?<!\w)(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('operations endpoints of the account service', () => {
  let h: AccountHarness;
  beforeAll(async () => {
    h = await startAccountHarness();
  });
  afterAll(() => h?.close());
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${h.baseUrl}${path}`, { headers });

  it('GET /health/live answers 200 without a signature', async () => {
    const res = await get('/health/live');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
  });

  it('GET /health/ready reports PostgreSQL reachable, every migration applied and every key id of the stored personal data in PII_KEYS', async () => {
    const res = await get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(await res.json()).toEqual({
      status: 'ok',
      info: {
        shutdown: { status: 'up' },
        database: { status: 'up' },
        migrations: { status: 'up', applied: MIGRATIONS.length },
        pii_keys: { status: 'up' },
      },
      error: {},
      details: {
        shutdown: { status: 'up' },
        database: { status: 'up' },
        migrations: { status: 'up', applied: MIGRATIONS.length },
        pii_keys: { status: 'up' },
      },
    });
  });

  it('GET /metrics serves process, HTTP, result-code and pool metrics', async () => {
    const list = await h.a.listAuths({ auth_state: '1' });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ response_code: '10201', count: '0' });
    const denied = await h.a.getAuth('NOPE', { signature: 'f'.repeat(64) });
    expect(denied.status).toBe(401);

    const res = await get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('process_resident_memory_bytes{service="account"}');
    expect(
      sample(text, 'http_request_duration_seconds_count', { route: '/account/v1.0.1/auths', method: 'GET', status_code: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'api_results_total', { route: '/account/v1.0.1/auths', status_code: '200', code: '10201' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'api_results_total', { route: '/account/v1.0.1/auths/:auth_id', status_code: '401', code: '90401' })).toBe(1);
    expect(sample(text, 'db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^db_pool_waiting_requests\{service="account"\} \d+$/m);
  });

  it('counts failed logins by reason and lockouts', async () => {
    expect((await h.a.registerUser('ops-user', { user_name: 'Ops', user_type: 'C', user_pwd: 'Correct-horse-1' })).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await h.a.login('ops-user', 'wrong-password')).body).toMatchObject({ response_code: '20441' });
    expect((await h.a.login('ops-user', 'Correct-horse-1')).body).toMatchObject({ response_code: '20443' });
    expect((await h.a.loginEncrypted('ops-user', 'not-base64!')).body).toMatchObject({ response_code: '90101' });
    const text = await (await get('/metrics')).text();
    expect(sample(text, 'login_failures_total', { reason: 'bad_credentials' })).toBe(5);
    expect(sample(text, 'login_failures_total', { reason: 'locked' })).toBe(1);
    expect(sample(text, 'login_failures_total', { reason: 'undecryptable' })).toBe(1);
    expect(text).toMatch(/^login_lockouts_total\{service="account"\} 1$/m);
  });

  it('echoes X-Request-Id and sends the security headers of an API', async () => {
    const res = await get('/health/live', { 'X-Request-Id': 'probe-42' });
    expect(res.headers.get('x-request-id')).toBe('probe-42');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toContain('no-store');
  });

  it('serves the OpenAPI UI at /docs and the document at /docs-json', async () => {
    const ui = await get('/docs');
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('<title>Account service</title>');
    const doc = await get('/docs-json');
    expect(doc.status).toBe(200);
    expect(await doc.json()).toMatchObject({
      openapi: expect.stringMatching(/^3\./),
      info: { title: 'Account service', version: '1.0.1' },
    });
  });

  it('/docs-json lists every route the application serves', async () => {
    const doc = (await (await get('/docs-json')).json()) as Parameters<typeof documentedRoutes>[0];
    const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
    const served = servedRoutes(h.app)
      .map(key)
      .filter((k) => !k.includes('*') && !k.startsWith('GET /docs'));
    // the thirteen spec endpoints, the two permission checks, health and metrics
    expect(served.filter((k) => k.includes('/account/v1.0.1/')).length).toBeGreaterThanOrEqual(15);
    expect(served).toEqual(expect.arrayContaining(['GET /health/live', 'GET /health/ready', 'GET /metrics']));
    expect(documentedRoutes(doc).map(key).sort()).toEqual([...new Set(served)].sort());
  });
});

describe('readiness of the account service', () => {
  it('is 503 while migrations are pending', async () => {
    const database = await createTestDatabase();
    const running = await listenAccountApp(database.url, { env: { DATABASE_AUTO_MIGRATE: 'false' } });
    try {
      const res = await fetch(`${running.baseUrl}/health/ready`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; error: Record<string, unknown> };
      expect(body.status).toBe('error');
      expect(body.error.migrations).toMatchObject({ status: 'down' });
      expect((await fetch(`${running.baseUrl}/health/live`)).status).toBe(200);
    } finally {
      await running.app.close();
      await dropTestDatabase(database.name);
    }
  });

  it('is 503 while PostgreSQL is down, and 200 again once it is back', async () => {
    const pg = await startPrivatePostgres();
    try {
      const running = await listenAccountApp(pg.url);
      try {
        expect((await fetch(`${running.baseUrl}/health/ready`)).status).toBe(200);
        pg.stop();
        const down = await fetch(`${running.baseUrl}/health/ready`);
        expect(down.status).toBe(503);
        expect(((await down.json()) as { error: Record<string, unknown> }).error.database).toMatchObject({ status: 'down' });
        expect((await fetch(`${running.baseUrl}/health/live`)).status).toBe(200);
        pg.start();
        let status = 0;
        for (let i = 0; i < 50 && status !== 200; i++) {
          status = (await fetch(`${running.baseUrl}/health/ready`)).status;
          if (status !== 200) await new Promise((r) => setTimeout(r, 200));
        }
        expect(status).toBe(200);
      } finally {
        await running.app.close();
      }
    } finally {
      pg.destroy();
    }
  }, 60_000);
});
