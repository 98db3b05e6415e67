import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { lbsEnvelope } from '@geoaccount/api';
import { type Fixture, createFixtureApp, signedFields } from '../test/fixture-app';
import { Metrics } from './metrics';

/** The value of one series in exposition text, e.g. `api_results_total{...,code="90000"}`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries([...body.matchAll(/(?<!\w)(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics', () => {
  let fixture: Fixture;
  let app: INestApplication;
  beforeAll(async () => {
    fixture = await createFixtureApp({ defaultMetrics: true });
    app = fixture.app;
  });
  afterAll(() => app.close());

  it('serves process metrics, durations by route template and result codes of success and failure paths', async () => {
    const http = () => request(app.getHttpServer());
    expect(
      (
        await http()
          .post('/things')
          .type('form')
          .send(signedFields('POST', '/things', { user_login_id: 'a' }))
      ).status,
    ).toBe(201);
    expect(
      (
        await http()
          .get('/things/x1')
          .query(signedFields('GET', '/things/x1', {}, { thing_id: 'x1' }))
      ).status,
    ).toBe(200);
    expect(
      (
        await http()
          .get('/things/x2')
          .query(signedFields('GET', '/things/x2', {}, { thing_id: 'x2' }))
      ).status,
    ).toBe(200);
    expect((await http().get('/things/x3').query({ app_token: 'app-0', signature: '0' })).status).toBe(401);
    expect((await http().get('/definitely/not/here')).status).toBe(404);

    const res = await http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // one series per route template, not per id
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/things/:thing_id',
        status_code: '200',
        service: 'fixture',
      }),
    ).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/things', status_code: '201' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBe(1);
    expect(text).not.toContain('/things/x1');
    // result codes from the controllers and from the exception filter
    expect(sample(text, 'api_results_total', { route: '/things', status_code: '201', code: '90000' })).toBe(1);
    expect(sample(text, 'api_results_total', { route: '/things/:thing_id', status_code: '200', code: '90000' })).toBe(2);
    expect(sample(text, 'api_results_total', { route: '/things/:thing_id', status_code: '401', code: '90401' })).toBe(1);
    expect(sample(text, 'api_results_total', { route: 'unmatched', status_code: '404', code: '90404' })).toBe(1);
  });
});

describe('metric helpers', () => {
  it('count cache hits, misses and errors', async () => {
    const metrics = new Metrics('t', { defaultMetrics: false });
    const cache = metrics.cache();
    expect(metrics.cache()).toBe(cache);
    cache.hit();
    cache.miss();
    cache.miss();
    cache.error('get');
    cache.error('get', 'clusterdown');
    const text = await metrics.render();
    expect(sample(text, 'cache_lookups_total', { result: 'hit' })).toBe(1);
    expect(sample(text, 'cache_lookups_total', { result: 'miss' })).toBe(2);
    expect(sample(text, 'cache_errors_total', { operation: 'get', reason: 'other' })).toBe(1);
    expect(sample(text, 'cache_errors_total', { operation: 'get', reason: 'clusterdown' })).toBe(1);
  });

  it('time upstream calls, count their failures and show the circuit state', async () => {
    const metrics = new Metrics('t', { defaultMetrics: false });
    const amap = metrics.upstream('amap');
    expect(metrics.upstream('amap')).toBe(amap);
    await expect(amap.time('regeo', async () => 'ok')).resolves.toBe('ok');
    const timeout = Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' });
    await expect(
      amap.time('regeo', async () => {
        throw timeout;
      }),
    ).rejects.toBe(timeout);
    amap.circuit('open');
    metrics.upstream('nominatim');
    const text = await metrics.render();
    expect(sample(text, 'upstream_request_duration_seconds_count', { upstream: 'amap', operation: 'regeo', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'upstream_request_duration_seconds_count', { upstream: 'amap', operation: 'regeo', outcome: 'error' })).toBe(1);
    expect(sample(text, 'upstream_errors_total', { upstream: 'amap', operation: 'regeo', reason: 'ETIMEDOUT' })).toBe(1);
    expect(sample(text, 'upstream_circuit_state', { upstream: 'amap' })).toBe(2);
    expect(sample(text, 'upstream_circuit_state', { upstream: 'nominatim' })).toBe(0);
  });

  it('count login failures and lockouts, and sample the database pool on scrape', async () => {
    const metrics = new Metrics('t', { defaultMetrics: false });
    metrics.login().failure('bad_credentials');
    metrics.login().failure('bad_credentials');
    metrics.login().lockout();
    let pool = { inUse: 3, idle: 7, waiting: 2 };
    metrics.dbPool(() => pool);
    expect(() => metrics.dbPool(() => pool)).toThrow(/already/);
    let text = await metrics.render();
    expect(sample(text, 'login_failures_total', { reason: 'bad_credentials' })).toBe(2);
    expect(text).toMatch(/^login_lockouts_total\{service="t"\} 1$/m);
    expect(sample(text, 'db_pool_connections', { state: 'in_use' })).toBe(3);
    expect(sample(text, 'db_pool_connections', { state: 'idle' })).toBe(7);
    expect(text).toMatch(/^db_pool_waiting_requests\{service="t"\} 2$/m);
    pool = { inUse: 0, idle: 10, waiting: 0 };
    text = await metrics.render();
    expect(sample(text, 'db_pool_connections', { state: 'in_use' })).toBe(0);
  });
});

describe('result codes of the location envelope', () => {
  it('are read from `code`', async () => {
    const fixture = await createFixtureApp({ style: lbsEnvelope });
    try {
      expect((await request(fixture.app.getHttpServer()).get('/nowhere')).status).toBe(404);
      const text = (await request(fixture.app.getHttpServer()).get('/metrics')).text;
      expect(sample(text, 'api_results_total', { route: 'unmatched', status_code: '404', code: '099' })).toBe(1);
    } finally {
      await fixture.app.close();
    }
  });
});
