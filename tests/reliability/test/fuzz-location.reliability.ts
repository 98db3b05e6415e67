import fc from 'fast-check';
import type { Redis } from 'ioredis';
import type { AppCredential } from '@geoaccount/signing';
import { APP_A, APP_B, APP_C } from '../src/apps';
import { lbsEnvelopeProblem } from '../src/envelope';
import { figure } from '../src/figures';
import { type LbsFuzzRequest, lbsRequest, sendLbsRequest } from '../src/fuzz/lbs-requests';
import { PrivateRedis } from '../src/private-redis';
import { connectRedis } from '../src/redis';
import { ServiceProcess, stopAllServices } from '../src/service-process';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
/** One lane per app: its own service instance and its own Redis, sequential requests. */
const LANE_APPS = [APP_A, APP_B, APP_C];

interface Lane {
  app: AppCredential;
  other: AppCredential;
  redis: PrivateRedis;
  client: Redis;
  svc: ServiceProcess;
}

/** The whole content of a Redis (keys, values; not TTLs). */
async function digest(redis: Redis): Promise<string> {
  return String(await redis.call('DEBUG', 'DIGEST'));
}

describe('location fuzzing', () => {
  const lanes: Lane[] = [];

  beforeAll(async () => {
    for (const [k, app] of LANE_APPS.entries()) {
      const redis = await PrivateRedis.start(['--enable-debug-command', 'yes']);
      const svc = await ServiceProcess.start('location', {
        name: `location-fuzz-${k}`,
        // thousands of requests of one app: the default per-app rate limit would answer most with 429
        env: { REDIS_URL: redis.url, GEOCODER: 'offline', RATE_LIMIT_PER_MINUTE: '0' },
      });
      lanes.push({ app, other: LANE_APPS[(k + 1) % LANE_APPS.length]!, redis, client: connectRedis(redis.url), svc });
    }
  });
  afterAll(async () => {
    await stopAllServices();
    for (const l of lanes) {
      l.client.disconnect();
      await l.redis.destroy();
    }
  });

  it(`${RUNS} generated requests: no 5xx, a valid envelope with a known code each, no cache change by a refused one`, async () => {
    const byStatus: Record<string, number> = {};
    let sent = 0;
    let refused = 0;
    const started = Date.now();
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    figure('fuzz-location', 'fast-check seed (FUZZ_SEED to replay)', seed);

    const runLane = async (lane: Lane, laneSeed: number) => {
      let before = await digest(lane.client);
      await fc.assert(
        fc.asyncProperty(lbsRequest, async (r: LbsFuzzRequest) => {
          const res = await sendLbsRequest(lane.svc.baseUrl, r, lane.app, lane.other);
          sent++;
          const body = res.body as Record<string, unknown> | null;
          const key = `${res.status}/${String(body?.code)}/${String(body?.lbsStat)}`;
          byStatus[key] = (byStatus[key] ?? 0) + 1;
          if (res.status >= 500) throw new Error(`HTTP ${res.status}: ${res.text.slice(0, 300)}`);
          const problem = lbsEnvelopeProblem(res.status, res.body);
          if (problem) throw new Error(`invalid envelope (HTTP ${res.status}): ${problem}`);
          const after = await digest(lane.client);
          if (res.status !== 200) {
            refused++;
            if (after !== before) throw new Error(`refused request (HTTP ${key}) changed the cache`);
          }
          before = after;
        }),
        { numRuns: Math.ceil(RUNS / lanes.length), seed: laneSeed, endOnFailure: true },
      );
    };
    await Promise.all(lanes.map((lane, k) => runLane(lane, seed + k)));

    const seconds = (Date.now() - started) / 1000;
    for (const l of lanes) expect(l.svc.alive).toBe(true);
    const cached = await Promise.all(lanes.map((l) => l.client.dbsize()));
    figure(
      'fuzz-location',
      'generated requests / refused / accepted',
      `${sent} / ${refused} / ${sent - refused}`,
      '',
      '≥ 10000 requests, 0 × 5xx',
    );
    figure(
      'fuzz-location',
      'answers by status/code/lbsStat',
      JSON.stringify(Object.fromEntries(Object.entries(byStatus).sort((a, b) => b[1] - a[1]))),
    );
    figure(
      'fuzz-location',
      'cache entries written by accepted requests',
      cached.reduce((a, b) => a + b, 0),
    );
    figure('fuzz-location', 'throughput (with a Redis digest after each request)', sent / seconds, 'requests/s');
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    expect(Object.keys(byStatus).filter((k) => k.startsWith('5'))).toEqual([]);
    // Deep enough: computed answers, cache hits and nothing-found answers all occur.
    expect(Object.keys(byStatus)).toEqual(expect.arrayContaining(['200/000/1', '200/000/2', '404/099/0', '400/099/0', '401/100/0']));
  });
});
