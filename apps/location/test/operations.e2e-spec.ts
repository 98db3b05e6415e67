import { documentedRoutes, servedRoutes } from '@geoaccount/http';
import { FakeAmap } from './support/fake-amap';
import { type LocationSession, runPrefix, startLocation } from './support/location-session';
import { PrivateRedis } from './support/private-redis';

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

const TIANANMEN = { longitude: '116.391275', latitude: '39.907501' };

describe('operations endpoints of the location service', () => {
  const amap = new FakeAmap();
  let redis: PrivateRedis;
  let s: LocationSession;

  beforeAll(async () => {
    await amap.start();
    redis = await PrivateRedis.start();
    s = await startLocation({
      GEOCODER: 'amap',
      AMAP_KEY: amap.key,
      AMAP_BASE_URL: amap.url,
      UPSTREAM_TIMEOUT_MS: '400',
      UPSTREAM_RETRIES: '0',
      UPSTREAM_BREAKER_FAILURES: '2',
      UPSTREAM_BREAKER_COOLDOWN_MS: '60000',
      REDIS_URL: redis.url,
      // a private redis-server: nothing to clean up after the run
      CACHE_KEY_PREFIX: runPrefix('ops'),
      REDIS_COMMAND_TIMEOUT_MS: '300',
    });
  });

  afterAll(async () => {
    await s?.close();
    await redis?.stop();
    await amap.stop();
    // ioredis' disconnect keeps a 2 s timer; let it run out so that jest exits cleanly
    await new Promise((r) => setTimeout(r, 2100));
  });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${s.url}${path}`, { headers });

  it('GET /health/live answers 200 without a signature', async () => {
    const res = await get('/health/live');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', info: {}, error: {}, details: {} });
  });

  it('GET /health/ready reports the geocoder and cells loaded and the cache up', async () => {
    const res = await get('/health/ready');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { details: unknown }).details).toEqual({
      shutdown: { status: 'up' },
      geocoder: { status: 'up', adapter: 'amap' },
      cells: { status: 'up', source: expect.any(String) },
      cache: { status: 'up', backend: 'redis' },
    });
  });

  it('GET /metrics counts cache hits and misses, upstream calls and result codes', async () => {
    expect((await s.client.lbsQuery(TIANANMEN)).body).toMatchObject({ code: '000', lbsStat: '1' });
    expect((await s.client.lbsQuery(TIANANMEN)).body).toMatchObject({ code: '000', lbsStat: '2' });
    expect((await s.client.lbsQuery({ longitude: '116.4', latitude: '91' })).status).toBe(400);
    const text = await (await get('/metrics')).text();
    expect(sample(text, 'cache_lookups_total', { result: 'hit', service: 'location' })).toBe(1);
    expect(sample(text, 'cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(sample(text, 'upstream_request_duration_seconds_count', { upstream: 'amap', operation: 'request', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'upstream_circuit_state', { upstream: 'amap' })).toBe(0);
    expect(sample(text, 'api_results_total', { route: '/lbsapi/api/lbsQuery', status_code: '200', code: '000' })).toBe(2);
    expect(sample(text, 'api_results_total', { route: '/lbsapi/api/lbsQuery', status_code: '400', code: '099' })).toBe(1);
  });

  it('echoes X-Request-Id and sends the security headers of an API', async () => {
    const res = await get('/health/live', { 'X-Request-Id': 'probe-7' });
    expect(res.headers.get('x-request-id')).toBe('probe-7');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toContain('no-store');
  });

  it('serves /docs and a /docs-json that lists every route the application serves', async () => {
    const ui = await get('/docs');
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('<title>Location service</title>');
    const doc = (await (await get('/docs-json')).json()) as Parameters<typeof documentedRoutes>[0];
    const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
    const served = servedRoutes(s.app)
      .map(key)
      .filter((k) => !k.includes('*') && !k.startsWith('GET /docs'));
    expect(served).toEqual(
      expect.arrayContaining([
        'GET /lbsapi/api/lbsQuery',
        'GET /lbsapi/api/addressQuery',
        'GET /lbsapi/api/baseStationQuery',
        'GET /health/ready',
        'GET /metrics',
      ]),
    );
    expect(documentedRoutes(doc).map(key).sort()).toEqual([...new Set(served)].sort());
  });

  it('stays ready with Redis down, reporting the cache as degraded, and counts Redis errors', async () => {
    await redis.kill();
    try {
      expect((await s.client.lbsQuery({ longitude: '116.391', latitude: '39.907' })).status).toBe(200);
      const res = await get('/health/ready');
      expect(res.status).toBe(200);
      const body = (await res.json()) as { status: string; details: Record<string, unknown> };
      expect(body.status).toBe('degraded');
      expect(body.details.cache).toMatchObject({ status: 'degraded', backend: 'redis' });
      // ioredis reports its failed reconnection attempts as errors
      let errors: number | undefined;
      for (let i = 0; i < 50 && errors === undefined; i++) {
        errors = sample(await (await get('/metrics')).text(), 'cache_errors_total', { operation: 'connection' });
        if (errors === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      expect(errors).toBeGreaterThanOrEqual(1);
    } finally {
      await redis.start();
    }
  });

  it('shows upstream failures and the open circuit', async () => {
    amap.mode = { kind: 'http', status: 500 };
    try {
      for (let i = 0; i < 3; i++) expect((await s.client.lbsQuery({ longitude: `116.39${i}`, latitude: '39.9' })).status).toBe(503);
    } finally {
      amap.reset();
    }
    const text = await (await get('/metrics')).text();
    expect(sample(text, 'upstream_errors_total', { upstream: 'amap', reason: 'http_500' })).toBe(2);
    expect(sample(text, 'upstream_errors_total', { upstream: 'amap', reason: 'circuit_open' })).toBe(1);
    expect(sample(text, 'upstream_circuit_state', { upstream: 'amap' })).toBe(2);
  });
});
