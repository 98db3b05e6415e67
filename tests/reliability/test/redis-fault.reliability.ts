import { setTimeout as sleep } from 'node:timers/promises';
import { APP_A, lbsClient } from '../src/apps';
import { figure, percentile } from '../src/figures';
import { type Sample, steadyLoad, tally } from '../src/load';
import { PrivateRedis } from '../src/private-redis';
import { runPrefix } from '../src/redis';
import { ServiceProcess, stopAllServices } from '../src/service-process';

/**
 * No answer may take longer than this while Redis is down: at worst a read and a write each
 * wait for REDIS_COMMAND_TIMEOUT_MS (250 ms) before the cache counts as missing, plus slack.
 */
const OUTAGE_LATENCY_BOUND_MS = 2500; // generous for a loaded machine; the figure printed is the measure
/** Caching must resume within this time of Redis being back. */
const RESUME_BOUND_MS = 15_000;

/** A point in Beijing per index (the offline geocoder answers every one). */
const point = (i: number) => ({
  longitude: (116.3 + (i % 1000) / 5000).toFixed(6),
  latitude: (39.85 + Math.floor(i / 1000) / 5000).toFixed(6),
});

describe('Redis fault under load', () => {
  let redis: PrivateRedis;
  let svc: ServiceProcess;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    svc = await ServiceProcess.start('location', {
      name: 'location-redis-fault',
      env: { REDIS_URL: redis.url, CACHE_KEY_PREFIX: runPrefix('redis-fault'), GEOCODER: 'offline' },
    });
  });
  afterAll(async () => {
    await stopAllServices();
    await redis?.destroy();
  });

  it('answers 200 with lbsStat 1 while Redis is dead, and caches again (lbsStat 2) once it is back', async () => {
    const client = lbsClient(svc.baseUrl, APP_A);
    // Warm: 50 points cached.
    for (let i = 0; i < 50; i++) {
      expect((await client.lbsQuery(point(i))).body).toMatchObject({ code: '000', lbsStat: '1' });
      expect((await client.lbsQuery(point(i))).body).toMatchObject({ code: '000', lbsStat: '2' });
    }
    let fresh = 1000;
    const run = steadyLoad(
      4,
      async (w, i, request) => {
        // Half repeats of the warm points, half new points.
        const p = i % 2 ? point((w * 13 + i) % 50) : point(fresh++);
        await request(i % 2 ? 'repeat' : 'new', `${p.longitude},${p.latitude}`, () => client.lbsQuery(p));
      },
      5,
    );
    await sleep(1500);
    const down = run.now();
    await redis.kill();
    await sleep(3000);
    const upAt = run.now();
    await redis.start();
    const up = run.now();
    await sleep(RESUME_BOUND_MS + 1500);
    expect(await run.stop(10_000)).toBe(0);
    expect(svc.alive).toBe(true);
    const s = run.samples;

    const notOk = s.filter((x) => x.status !== 200 || x.code !== '000');
    const stat = (x: Sample) => (x.body as { lbsStat?: string }).lbsStat;
    const before = s.filter((x) => x.end < down);
    const during = s.filter((x) => x.start > down + 50 && x.end < upAt);
    const after = s.filter((x) => x.start >= up);
    const resumed = after.filter((x) => x.op === 'repeat' && stat(x) === '2').sort((a, b) => a.end - b.end)[0];
    const resumeMs = resumed ? resumed.end - up : Number.POSITIVE_INFINITY;
    const lat = during.map((x) => x.end - x.start);

    figure('redis-fault', 'requests before / during / after the outage', `${before.length} / ${during.length} / ${after.length}`);
    figure('redis-fault', 'answers other than 200/000 (whole run)', notOk.length, '', '= 0');
    figure(
      'redis-fault',
      'lbsStat during the outage',
      JSON.stringify(during.reduce<Record<string, number>>((m, x) => ({ ...m, [String(stat(x))]: (m[String(stat(x))] ?? 0) + 1 }), {})),
      '',
      'all 1',
    );
    figure(
      'redis-fault',
      'p50 / max latency during the outage',
      `${percentile(lat, 50)} / ${Math.max(...lat)}`,
      'ms',
      `max < ${OUTAGE_LATENCY_BOUND_MS}`,
    );
    figure('redis-fault', 'caching resumed (first lbsStat 2 after restart)', resumeMs, 'ms', `< ${RESUME_BOUND_MS}`);

    expect(tally(notOk)).toEqual({});
    expect(before.filter((x) => x.op === 'repeat').every((x) => stat(x) === '2')).toBe(true);
    expect(during.length).toBeGreaterThan(20);
    expect(during.filter((x) => stat(x) !== '1')).toEqual([]);
    expect(Math.max(...lat)).toBeLessThan(OUTAGE_LATENCY_BOUND_MS);
    expect(resumeMs).toBeLessThan(RESUME_BOUND_MS);
    // Once resumed, a new point is stored and its repeat is a hit.
    const p = point(99_000);
    expect((await client.lbsQuery(p)).body).toMatchObject({ code: '000', lbsStat: '1' });
    expect((await client.lbsQuery(p)).body).toMatchObject({ code: '000', lbsStat: '2' });
  });
});
