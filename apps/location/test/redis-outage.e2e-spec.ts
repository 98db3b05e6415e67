/**
 * A private redis-server, killed in the middle of the run: the service keeps answering
 * (from the upstream, lbsStat 1, one warning), without slowing down, and caches again by
 * itself once Redis is back.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LATE_MS, printFigure } from '@geoaccount/testing';
import { FakeAmap } from './support/fake-amap';
import { type LocationSession, runPrefix, startLocation } from './support/location-session';
import { PrivateRedis } from './support/private-redis';

/**
 * Long enough that a request waiting for it is told apart from a merely slow one on a loaded
 * machine: "does not wait for Redis" is asserted as "takes less than half of it".
 */
const COMMAND_TIMEOUT_MS = 2000;

describe('Redis outage', () => {
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
      REDIS_URL: redis.url,
      CACHE_KEY_PREFIX: runPrefix('outage'),
      REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
    });
  });

  afterAll(async () => {
    await s?.close();
    await redis?.stop();
    await amap.stop();
  });

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const point = (i: number) => ({ longitude: (116.39 + i / 10000).toFixed(6), latitude: '39.910000' });

  it('caches while Redis is up, answers without it while it is down, and caches again when it is back', async () => {
    // Up: computed, then from the cache.
    const a1 = await s.client.lbsQuery(point(0));
    expect(a1.status).toBe(200);
    expect(a1.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '110101' });
    const a2 = await s.client.lbsQuery(point(0));
    expect(a2.body).toMatchObject({ code: '000', lbsStat: '2', standardCode: '110101' });

    // Down: killed without warning. (Count the warnings first: the client may notice the
    // closed connection before kill() returns.)
    const warningsBefore = s.logs.of('Cache').filter((l) => l.level === 40).length;
    await redis.kill();
    const timings: number[] = [];
    for (let i = 0; i < 20; i++) {
      const p = point(i % 2); // the cached point and a new one, alternately
      const started = performance.now();
      const res = await s.client.lbsQuery(p);
      timings.push(performance.now() - started);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '110101', provinceName: '北京市' });
    }
    printFigure('Redis down: median answer', median(timings));
    // Requests do not wait for the dead Redis (a wait would cost its command timeout).
    expect(median(timings)).toBeLessThan(COMMAND_TIMEOUT_MS / 2);
    const warnings = s.logs.of('Cache').filter((l) => l.level === 40).slice(warningsBefore);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]?.msg)).toMatch(/^Redis unavailable \(.+\); answering from the upstream without a cache until it is back$/);

    // Back: ioredis reconnects by itself; the next miss is stored and the repeat is a hit.
    await redis.start();
    const deadline = Date.now() + 10_000;
    let cachedAgain = false;
    for (let i = 100; !cachedAgain && Date.now() < deadline; i++) {
      const first = await s.client.lbsQuery(point(i));
      expect(first.status).toBe(200);
      const repeat = await s.client.lbsQuery(point(i));
      expect(repeat.status).toBe(200);
      cachedAgain = repeat.body.lbsStat === '2';
      if (!cachedAgain) await sleep(100);
    }
    expect(cachedAgain).toBe(true);
    expect(s.logs.of('Cache').some((l) => l.msg === 'Redis available again; caching resumed')).toBe(true);
  });

  it('bounds a hung Redis by the command timeout, then leaves it alone for a while', async () => {
    const warm = await s.client.lbsQuery(point(500));
    expect(warm.body).toMatchObject({ code: '000', lbsStat: '1' });
    expect((await s.client.lbsQuery(point(500))).body).toMatchObject({ lbsStat: '2' });

    redis.pause(); // SIGSTOP: connected, but never answers
    try {
      const started = performance.now();
      const first = await s.client.lbsQuery(point(500));
      const firstMs = performance.now() - started;
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '110101' });
      printFigure(`Redis hung: first answer (command timeout ${COMMAND_TIMEOUT_MS} ms)`, firstMs);
      expect(firstMs).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 50);
      expect(firstMs).toBeLessThan(COMMAND_TIMEOUT_MS + LATE_MS);
      // After a failed command the cache is skipped for a moment: no further waits.
      const timings: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        const res = await s.client.lbsQuery(point(501 + i));
        timings.push(performance.now() - t);
        expect(res.status).toBe(200);
      }
      printFigure('Redis hung, after the first failure: median answer', median(timings));
      expect(median(timings)).toBeLessThan(COMMAND_TIMEOUT_MS / 2);
    } finally {
      redis.resume();
    }
    const deadline = Date.now() + 10_000;
    let cached = false;
    while (!cached && Date.now() < deadline) {
      await sleep(200);
      cached = (await s.client.lbsQuery(point(500))).body.lbsStat === '2';
    }
    expect(cached).toBe(true);
  });
});
