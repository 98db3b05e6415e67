import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { signAccount } from '@geoaccount/signing';
import { APP_A, accountClient, lbsClient } from '../src/apps';
import { type AccountFixture, accountOnFreshDatabase } from '../src/account-fixture';
import { FAKE_AMAP_KEY, FakeAmap } from '../src/fake-amap';
import { figure, percentile } from '../src/figures';
import { formEncode, sendRaw } from '../src/fuzz/http';
import { type Sample, steadyLoad, tally } from '../src/load';
import { connectRedis, deleteUnder, redisUrl, runPrefix } from '../src/redis';
import { PrivateRedisCluster } from '../src/redis-cluster';
import { password } from '../src/sentinels';
import { ServiceProcess, stopAllServices } from '../src/service-process';

type Answer = { status: number; body: unknown };
const code = (r: Answer) => (r.body as Record<string, string>).response_code;
function counts(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of answers) out[`${r.status}/${code(r)}`] = (out[`${r.status}/${code(r)}`] ?? 0) + 1;
  return out;
}

describe('scale-out: two account instances on one database', () => {
  let f: AccountFixture;
  let second: ServiceProcess;
  afterAll(async () => {
    await f?.close();
    await stopAllServices();
  });

  beforeAll(async () => {
    f = await accountOnFreshDatabase('account-scale-1');
    second = await ServiceProcess.start('account', { name: 'account-scale-2', env: { DATABASE_URL: f.db.url } });
  });

  it('100 concurrent duplicate creates spread over both: exactly one 201', async () => {
    const one = f.a;
    const two = accountClient(second.baseUrl, APP_A);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).createGroup('scale-dup', { group_name: 'dup' })),
    );
    figure('scale-out', '100 duplicate group creates over 2 instances', JSON.stringify(counts(answers)), '', '1 × 201');
    expect(counts(answers)).toEqual({ '201/90000': 1, '409/10420': 99 });
    // written on one, read on the other
    expect(await two.createAuth('SC1', { auth_name: 'scale' })).toMatchObject({ status: 201 });
    expect(await one.getAuth('SC1')).toMatchObject({ status: 200, body: { auth_name: 'scale' } });
  });

  it('the lockout counts failures from both instances: 5 concurrent failures over two lock on both', async () => {
    const one = f.a;
    const two = accountClient(second.baseUrl, APP_A);
    expect(await one.registerUser('scale-lock', { user_name: 'lock', user_type: 'C', user_pwd: password('scale') })).toMatchObject({
      status: 201,
    });
    const failures = await Promise.all(Array.from({ length: 5 }, (_, i) => (i % 2 ? one : two).login('scale-lock', password('wrong'))));
    expect(counts(failures)).toEqual({ '401/20441': 5 });
    const [a, b] = [await one.login('scale-lock', password('scale')), await two.login('scale-lock', password('scale'))];
    figure(
      'scale-out',
      'after 5 failures over 2 instances, the right password on each',
      `${a.status}/${code(a)}, ${b.status}/${code(b)}`,
      '',
      '403/20443 both',
    );
    expect([a, b].map((r) => `${r.status}/${code(r)}`)).toEqual(['403/20443', '403/20443']);
  });

  it('a nonce used on one instance is refused on the other', async () => {
    const ts = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(12).toString('hex');
    const sig = signAccount(APP_A.secret, 'POST', APP_A.appToken, '/account/v1.0.1/auths/SCN', {
      auth_name: 'n',
      timestamp: ts,
      nonce,
      auth_id: 'SCN',
    });
    const body = formEncode([
      ['auth_name', 'n'],
      ['timestamp', ts],
      ['nonce', nonce],
      ['app_token', APP_A.appToken],
      ['signature', sig],
    ]);
    const form = 'application/x-www-form-urlencoded';
    const first = await sendRaw(f.svc.baseUrl, 'POST', '/account/v1.0.1/auths/SCN', body, form);
    const replay = await sendRaw(second.baseUrl, 'POST', '/account/v1.0.1/auths/SCN', body, form);
    figure(
      'scale-out',
      'nonce: first on instance 1 / replay on instance 2',
      `${first.status} / ${replay.status}/${code(replay)}`,
      '',
      '201 / 401/90401',
    );
    expect(first).toMatchObject({ status: 201 });
    expect(replay).toMatchObject({ status: 401, body: { response_code: '90401' } });
  });
});

describe('scale-out: two location instances on one Redis', () => {
  const amap = new FakeAmap();
  const prefix = runPrefix('scale');
  let redis: Redis;
  let one: ServiceProcess;
  let two: ServiceProcess;

  beforeAll(async () => {
    await amap.start();
    redis = connectRedis();
    const env = { GEOCODER: 'amap', AMAP_KEY: FAKE_AMAP_KEY, AMAP_BASE_URL: amap.url, REDIS_URL: redisUrl(), CACHE_KEY_PREFIX: prefix };
    one = await ServiceProcess.start('location', { name: 'location-scale-1', env });
    two = await ServiceProcess.start('location', { name: 'location-scale-2', env });
  });
  afterAll(async () => {
    await stopAllServices();
    await deleteUnder(redis, prefix).catch(() => undefined);
    redis?.disconnect();
    await amap.stop();
  });

  it('a miss on instance 1 is a hit on instance 2', async () => {
    const c1 = lbsClient(one.baseUrl);
    const c2 = lbsClient(two.baseUrl);
    const results: string[] = [];
    for (let i = 0; i < 20; i++) {
      const p = { longitude: (116.4 + i / 1000).toFixed(6), latitude: '39.910000' };
      const a = await c1.lbsQuery(p);
      const b = await c2.lbsQuery(p);
      expect(a.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '110101' });
      expect(b.body).toMatchObject({ code: '000', lbsStat: '2', standardCode: '110101' });
      results.push(`${a.body.lbsStat}${b.body.lbsStat}`);
    }
    const addr = { city: '北京市', address: '长安街1号' };
    expect((await c2.addressQuery(addr)).body).toMatchObject({ code: '000', lbsStat: '1' });
    expect((await c1.addressQuery(addr)).body).toMatchObject({ code: '000', lbsStat: '2' });
    figure(
      'scale-out',
      'location: 20 points asked on instance 1 then 2 (lbsStat)',
      `${results.filter((r) => r === '12').length} × 1 then 2`,
      '',
      'all',
    );
  });

  it('50 concurrent identical misses over both instances call the upstream at most once per instance', async () => {
    const c1 = lbsClient(one.baseUrl);
    const c2 = lbsClient(two.baseUrl);
    amap.mode = 'slow';
    amap.slowMs = 300;
    const hits = amap.hits;
    const p = { longitude: '116.451234', latitude: '39.921234' };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? c1 : c2).lbsQuery(p)));
    amap.mode = 'ok';
    const calls = amap.hits - hits;
    figure('scale-out', 'location: upstream calls for 50 concurrent identical misses over 2 instances', calls, '', '≤ 2');
    expect(answers.every((a) => a.status === 200 && a.body.code === '000')).toBe(true);
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(2);
  });
});

describe('location on a Redis Cluster (3 masters + 3 replicas)', () => {
  let cluster: PrivateRedisCluster;
  let svc: ServiceProcess;
  /** Caching must be back on every slot within this time of a master's death. */
  const FAILOVER_BOUND_MS = 30_000; // generous for a loaded machine; the figure printed is the measure
  /**
   * A failing cache costs at most its command timeout (REDIS_COMMAND_TIMEOUT_MS, 250 ms) per
   * command; the bound leaves a loaded machine room (the figure printed is the measure).
   */
  const LATENCY_BOUND_MS = 2500;

  beforeAll(async () => {
    cluster = await PrivateRedisCluster.start();
    svc = await ServiceProcess.start('location', {
      name: 'location-cluster',
      env: { REDIS_CLUSTER_NODES: cluster.seeds, CACHE_KEY_PREFIX: runPrefix('cluster'), GEOCODER: 'offline' },
    });
  });
  afterAll(async () => {
    await stopAllServices();
    await cluster?.destroy();
  });

  const point = (i: number) => ({
    longitude: (116.3 + (i % 1000) / 5000).toFixed(6),
    latitude: (39.85 + Math.floor(i / 1000) / 5000).toFixed(6),
  });

  it('caches on every master, keeps answering when a master is killed, and caches again after the failover', async () => {
    const client = lbsClient(svc.baseUrl);
    // 60 keys spread over the slots of all three masters: each computed once, then a hit.
    for (let i = 0; i < 60; i++) {
      expect((await client.lbsQuery(point(i))).body).toMatchObject({ code: '000', lbsStat: '1' });
      expect((await client.lbsQuery(point(i))).body).toMatchObject({ code: '000', lbsStat: '2' });
    }
    // ... and they are in the cluster, on each of the three masters.
    const dbsizes = await cluster.keysPerMaster();
    figure('redis-cluster', 'cached keys per master before the failure', dbsizes.join(' / '), '', '3 masters, each > 0');
    expect(dbsizes).toHaveLength(3);
    expect(dbsizes.every((n) => n > 0)).toBe(true);
    expect(dbsizes.reduce((a, b) => a + b, 0)).toBe(60);

    let fresh = 10_000;
    const run = steadyLoad(
      4,
      async (w, i, request) => {
        const p = i % 2 ? point((w * 7 + i) % 60) : point(fresh++);
        await request(i % 2 ? 'repeat' : 'new', undefined, () => client.lbsQuery(p));
      },
      5,
    );
    await sleep(1000);
    const victim = cluster.masters()[0]!;
    const killedAt = run.now();
    await victim.kill();
    const failover = Date.now();
    // Failed over: a replica has become the third master and every slot is served again.
    while (!(cluster.masters().length === 3 && cluster.healthy()) && Date.now() - failover < 30_000) await sleep(100);
    const clusterOkMs = Date.now() - failover;
    await sleep(3000);
    expect(await run.stop(10_000)).toBe(0);
    const s = run.samples;
    const bad = s.filter((x: Sample) => x.status !== 200 || x.code !== '000');
    const after = s.filter((x) => x.start > killedAt);
    const lat = after.map((x) => x.end - x.start);
    figure('redis-cluster', 'answers other than 200/000 under load while a master died', bad.length, '', '= 0');
    figure(
      'redis-cluster',
      'replica promoted, cluster ok again after the master was killed',
      clusterOkMs,
      'ms',
      'cluster-node-timeout 1000 ms',
    );
    expect(cluster.masters()).toHaveLength(3);
    figure(
      'redis-cluster',
      'p50 / max latency after the kill',
      `${percentile(lat, 50)} / ${Math.max(...lat)}`,
      'ms',
      `max < ${LATENCY_BOUND_MS}`,
    );
    expect(Math.max(...lat)).toBeLessThan(LATENCY_BOUND_MS);
    expect(tally(bad)).toEqual({});

    // Caching is back on every slot: 60 new keys, each a hit on the second ask.
    let hitsOnSecondAsk = 0;
    while (Date.now() - failover < FAILOVER_BOUND_MS + 5000) {
      hitsOnSecondAsk = 0;
      for (let i = 0; i < 60; i++) {
        const p = point(50_000 + fresh++);
        expect((await client.lbsQuery(p)).status).toBe(200);
        if ((await client.lbsQuery(p)).body.lbsStat === '2') hitsOnSecondAsk++;
      }
      if (hitsOnSecondAsk === 60) break;
      await sleep(200);
    }
    const resumedMs = Date.now() - failover;
    figure('redis-cluster', 'caching back on every slot after the kill', resumedMs, 'ms', `< ${FAILOVER_BOUND_MS}`);
    figure('redis-cluster', 'last probe: new keys cached', `${hitsOnSecondAsk} / 60`, '', '60 / 60');
    expect(hitsOnSecondAsk).toBe(60);
    expect(resumedMs).toBeLessThan(FAILOVER_BOUND_MS);
  });
});
