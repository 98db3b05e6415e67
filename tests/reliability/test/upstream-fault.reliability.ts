import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { APP_A, lbsClient } from '../src/apps';
import { FAKE_AMAP_KEY, FakeAmap, type FakeAmapMode } from '../src/fake-amap';
import { figure } from '../src/figures';
import { connectRedis, deleteUnder, keysUnder, redisUrl, runPrefix } from '../src/redis';
import { ServiceProcess, stopAllServices } from '../src/service-process';

const TIMEOUT_MS = 800;
/**
 * An answer may come this much later than UPSTREAM_TIMEOUT_MS, and the circuit close this much
 * later than its cooldown: generous, for a loaded machine delays timers (the figures printed
 * are the measure). The slow upstream answers later still, so a missing timeout fails.
 */
const SLACK_MS = 10_000;
const BREAKER_FAILURES = 5;
const COOLDOWN_MS = 2000;
/** An open circuit answers at once: no upstream call (counted), and no wait for the timeout. */
const FAST_FAIL_BOUND_MS = TIMEOUT_MS;

describe('upstream faults (fake AMap on loopback)', () => {
  const amap = new FakeAmap();
  const prefix = runPrefix('upstream');
  let redis: Redis;
  let svc: ServiceProcess;
  let n = 0;
  /** A point never asked before (so never cached). */
  const fresh = () => {
    n++;
    return { longitude: (116.3 + n / 10000).toFixed(6), latitude: '39.900000' };
  };

  beforeAll(async () => {
    await amap.start();
    redis = connectRedis();
    svc = await ServiceProcess.start('location', {
      name: 'location-upstream-fault',
      env: {
        GEOCODER: 'amap',
        AMAP_KEY: FAKE_AMAP_KEY,
        AMAP_BASE_URL: amap.url,
        REDIS_URL: redisUrl(),
        CACHE_KEY_PREFIX: prefix,
        UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
        UPSTREAM_RETRIES: '2',
        UPSTREAM_BREAKER_FAILURES: String(BREAKER_FAILURES),
        UPSTREAM_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
      },
    });
  });
  afterAll(async () => {
    await stopAllServices();
    await deleteUnder(redis, prefix).catch(() => undefined);
    redis?.disconnect();
    await amap.stop();
  });

  /** Waits out the cooldown with a healthy upstream, so that the circuit is closed again. */
  async function healthy(): Promise<void> {
    amap.mode = 'ok';
    const client = lbsClient(svc.baseUrl, APP_A);
    for (let i = 0; i < 20; i++) {
      const res = await client.lbsQuery(fresh());
      if (res.status === 200) return;
      await sleep(COOLDOWN_MS / 4);
    }
    throw new Error('the circuit did not close');
  }

  const modes: FakeAmapMode[] = ['slow', 'http500', 'garbage', 'reset'];
  it.each(modes)('%s: 503/099 within UPSTREAM_TIMEOUT_MS, nothing cached, the circuit opens and closes again', async (mode) => {
    await healthy();
    const client = lbsClient(svc.baseUrl, APP_A);
    amap.mode = mode;
    amap.slowMs = TIMEOUT_MS + SLACK_MS + 5000; // longer than any answer the test accepts

    // Failures until the circuit opens: each answer 503/099 with lbsStat 0, in time.
    const latencies: number[] = [];
    const asked: { longitude: string; latitude: string }[] = [];
    let opened = -1;
    let openedAt = 0;
    for (let i = 0; i < 10 && opened < 0; i++) {
      const p = fresh();
      asked.push(p);
      const hitsBefore = amap.hits;
      const t = performance.now();
      const res = await client.lbsQuery(p);
      const ms = performance.now() - t;
      latencies.push(ms);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: '099', lbsStat: '0' });
      expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
      if (amap.hits === hitsBefore) opened = i;
      else openedAt = Date.now(); // the circuit opens on the last failure that reached the upstream
    }
    expect(opened).toBeGreaterThan(0);

    // Open: fast failures without calling the upstream.
    const hits = amap.hits;
    const fast: number[] = [];
    for (let i = 0; i < 5; i++) {
      const p = fresh();
      asked.push(p);
      const t = performance.now();
      const res = await client.lbsQuery(p);
      fast.push(performance.now() - t);
      expect(res).toMatchObject({ status: 503, body: { code: '099', lbsStat: '0' } });
    }
    expect(amap.hits).toBe(hits);
    expect(Math.max(...fast)).toBeLessThan(FAST_FAIL_BOUND_MS);

    // Nothing of the failures was cached.
    expect(await keysUnder(redis, prefix).then((keys) => keys.filter((k) => asked.some((p) => k.includes(p.longitude))))).toEqual([]);

    // Upstream back: still refused until the half-open delay, then one trial call closes it.
    amap.mode = 'ok';
    const back = Date.now();
    let closedAfter = -1;
    while (Date.now() - back < COOLDOWN_MS + SLACK_MS) {
      const res = await client.lbsQuery(asked[0]!);
      if (res.status === 200) {
        expect(res.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '110101' });
        closedAfter = Date.now() - back;
        break;
      }
      expect(res).toMatchObject({ status: 503, body: { code: '099' } });
      await sleep(100);
    }
    expect(closedAfter).toBeGreaterThan(0);
    const openFor = back + closedAfter - openedAt;
    expect(openFor).toBeGreaterThan(COOLDOWN_MS * 0.75);
    expect(openFor).toBeLessThan(COOLDOWN_MS + SLACK_MS);
    // Closed: answers and caching as usual (the failed point is computed now, then cached).
    expect((await client.lbsQuery(asked[0]!)).body).toMatchObject({ code: '000', lbsStat: '2' });

    figure(
      'upstream-fault',
      `${mode}: 503 latency max (requests before the circuit opened)`,
      `${Math.round(Math.max(...latencies))} (${opened + 1})`,
      'ms',
      `< ${TIMEOUT_MS + SLACK_MS}`,
    );
    figure('upstream-fault', `${mode}: open-circuit failure latency max`, Math.round(Math.max(...fast)), 'ms', `< ${FAST_FAIL_BOUND_MS}`);
    figure('upstream-fault', `${mode}: circuit open for`, openFor, 'ms', `half-open delay ${COOLDOWN_MS} ms (+700)`);
  });
});
