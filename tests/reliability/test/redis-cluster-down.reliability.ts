/**
 * Location on a Redis Cluster that cannot serve: a master and its replica gone, so no failover
 * can cover their slots and the cluster answers CLUSTERDOWN. Answers stay 200 (from the
 * geocoder, lbsStat 1), every CLUSTERDOWN reply is counted in `cache_errors_total`
 * (`reason="clusterdown"`), readiness reports the cache `degraded`; with the two nodes back,
 * readiness turns `up` by itself (no lookups sent meanwhile) and answers are cached again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { lbsClient } from '../src/apps';
import { figure } from '../src/figures';
import { waitFor } from '../src/net';
import { runPrefix } from '../src/redis';
import { PrivateRedisCluster } from '../src/redis-cluster';
import { ServiceProcess, stopAllServices } from '../src/service-process';

type Ready = { status: string; details?: Record<string, { status: string; backend?: string; message?: string }> };

describe('location on a Redis Cluster that cannot serve (CLUSTERDOWN)', () => {
  let cluster: PrivateRedisCluster;
  let svc: ServiceProcess;
  const prefix = runPrefix('clusterdown');

  beforeAll(async () => {
    cluster = await PrivateRedisCluster.start();
    svc = await ServiceProcess.start('location', {
      name: 'location-clusterdown',
      env: { REDIS_CLUSTER_NODES: cluster.seeds, CACHE_KEY_PREFIX: prefix, GEOCODER: 'offline' },
    });
  });
  afterAll(async () => {
    await stopAllServices();
    await cluster?.destroy();
  });

  const ready = async () => {
    const res = await fetch(`${svc.baseUrl}/health/ready`);
    return { status: res.status, body: (await res.json()) as Ready };
  };
  const clusterDownErrors = async () => {
    const text = await (await fetch(`${svc.baseUrl}/metrics`)).text();
    return [...text.matchAll(/^cache_errors_total\{[^}]*reason="clusterdown"[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };
  const point = (i: number) => ({ longitude: (116.3 + i / 5000).toFixed(6), latitude: '39.900000' });

  it('answers without the cache, counts every CLUSTERDOWN, reports degraded, and is up again by itself', async () => {
    const client = lbsClient(svc.baseUrl);
    expect((await client.lbsQuery(point(1))).body).toMatchObject({ code: '000', lbsStat: '1' });
    expect((await client.lbsQuery(point(1))).body).toMatchObject({ code: '000', lbsStat: '2' });
    expect((await ready()).body.details?.cache).toMatchObject({ status: 'up', backend: 'redis' });
    expect(await clusterDownErrors()).toBe(0);

    // A master (not the one of readiness's probe key, whose reads must meet CLUSTERDOWN rather
    // than a dead node) and its replica, killed: their slots have no one left to serve them.
    const probeOwner = cluster.masterOf(`${prefix}health-probe`);
    const master = cluster.masters().find((m) => m.port !== probeOwner.port)!;
    const replica = cluster.replicaOf(master);
    await replica.kill();
    await master.kill();
    const failedMs = await waitFor('the cluster to declare itself failed', () => cluster.failed(), 60_000, 200);
    figure('redis-cluster-down', 'cluster_state:fail after the kill', failedMs, 'ms');

    for (let i = 0; i < 10; i++) {
      const res = await client.lbsQuery(point(100 + i));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: '000', lbsStat: '1' });
    }
    // Each readiness check while degraded reads the probe key once the pause after a failure
    // (1 s) is over: each one meets a CLUSTERDOWN reply, and each is counted.
    const before = await clusterDownErrors();
    for (let i = 0; i < 3; i++) {
      await sleep(1500);
      const state = await ready();
      expect(state.status).toBe(200);
      expect(state.body.status).toBe('degraded');
      expect(state.body.details?.cache).toMatchObject({ status: 'degraded', backend: 'redis' });
    }
    const counted = (await clusterDownErrors()) - before;
    figure('redis-cluster-down', 'CLUSTERDOWN replies counted over 3 readiness checks 1.5 s apart', counted, '', '≥ 3');
    expect(counted).toBeGreaterThanOrEqual(3);

    // Back: no lookups are sent; readiness alone sees the cluster serve again.
    await master.start();
    await replica.start();
    const okMs = await waitFor('the cluster to be ok again', () => cluster.healthy(), 60_000, 200);
    figure('redis-cluster-down', 'cluster ok after the restart', okMs, 'ms');
    const upMs = await waitFor(
      'readiness to report the cache up',
      async () => (await ready()).body.details?.cache?.status === 'up',
      60_000,
      500,
    );
    figure('redis-cluster-down', 'cache up in readiness after the cluster is ok (readiness polled every 0.5 s)', upMs, 'ms', '< 60000');
    expect((await ready()).body.status).toBe('ok');

    // and caching again, on every slot
    await waitFor(
      'answers to be cached again',
      async () => {
        const p = point(500 + Math.floor(Math.random() * 1000));
        await client.lbsQuery(p);
        return (await client.lbsQuery(p)).body.lbsStat === '2';
      },
      60_000,
      200,
    );
  });
});
