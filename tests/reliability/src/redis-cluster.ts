import { spawnSync } from 'node:child_process';
import { Cluster } from 'ioredis';
import { freePort, waitFor } from './net';
import { PrivateRedis } from './private-redis';

/**
 * A Redis Cluster of 3 masters and 3 replicas on loopback ports, each node a
 * `redis-server --cluster-enabled yes` in a temp dir, joined with `redis-cli --cluster create`.
 */
export class PrivateRedisCluster {
  private constructor(readonly nodes: PrivateRedis[]) {}

  static async start(nodeTimeoutMs = 1000): Promise<PrivateRedisCluster> {
    const nodes: PrivateRedis[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        const port = await freePort();
        nodes.push(
          await PrivateRedis.start(
            [
              '--cluster-enabled',
              'yes',
              '--cluster-config-file',
              `nodes-${port}.conf`,
              '--cluster-node-timeout',
              String(nodeTimeoutMs),
              // A replica may take over however long its link was down (a fresh test cluster).
              '--cluster-replica-validity-factor',
              '0',
            ],
            port,
          ),
        );
      }
      const create = spawnSync(
        'redis-cli',
        ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'],
        {
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}\n${create.stderr}`);
      const cluster = new PrivateRedisCluster(nodes);
      await waitFor('the cluster to be ok on every node', () => cluster.healthy(), 30_000, 200);
      await waitFor('every replica to be in sync with its master', () => cluster.replicasInSync(), 30_000, 200);
      return cluster;
    } catch (err) {
      for (const n of nodes) await n.destroy();
      throw err;
    }
  }

  /** `host:port,host:port,...` of every node (`REDIS_CLUSTER_NODES`). */
  get seeds(): string {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  }

  info(node: PrivateRedis, section: string): string {
    return spawnSync('redis-cli', ['-p', String(node.port), 'cluster', section], { encoding: 'utf8', timeout: 5000 }).stdout ?? '';
  }

  /** Every running node reports `cluster_state:ok` and every slot served. */
  healthy(): boolean {
    return this.nodes
      .filter((n) => n.running)
      .every((n) => {
        const info = this.info(n, 'info');
        return info.includes('cluster_state:ok') && info.includes('cluster_slots_ok:16384');
      });
  }

  replicasInSync(): boolean {
    return this.nodes.every((n) => {
      const info = spawnSync('redis-cli', ['-p', String(n.port), 'info', 'replication'], { encoding: 'utf8', timeout: 5000 }).stdout ?? '';
      return info.includes('role:master') || info.includes('master_link_status:up');
    });
  }

  /** The running masters (by `CLUSTER NODES` as one running node sees it). */
  masters(): PrivateRedis[] {
    const view = this.info(
      this.nodes.find((n) => n.running)!,
      'nodes',
    );
    const ports = view
      .split('\n')
      .filter((l) => /\bmaster\b/.test(l) && !/\bfail\b/.test(l))
      .map((l) => Number(/:(\d+)@/.exec(l)?.[1]));
    return this.nodes.filter((n) => n.running && ports.includes(n.port));
  }

  /** `CLUSTER NODES` as one running node sees it: each node's port, role, master's id and slot ranges. */
  private view(): { id: string; port: number; master: boolean; masterId: string; slots: [number, number][] }[] {
    return this.info(
      this.nodes.find((n) => n.running)!,
      'nodes',
    )
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [id, address, flags, masterId, , , , , ...slots] = line.split(' ');
        return {
          id: id!,
          port: Number(/:(\d+)@/.exec(address!)?.[1]),
          master: flags!.split(',').includes('master'),
          masterId: masterId!,
          slots: slots
            .filter((r) => /^\d/.test(r))
            .map((r) => r.split('-').map(Number) as [number, number])
            .map(([a, b]) => [a!, b ?? a!]),
        };
      });
  }

  /** The replica of a master. */
  replicaOf(master: PrivateRedis): PrivateRedis {
    const view = this.view();
    const id = view.find((n) => n.port === master.port)!.id;
    const port = view.find((n) => n.masterId === id)?.port;
    const replica = this.nodes.find((n) => n.port === port);
    if (!replica) throw new Error(`no replica of the master on port ${master.port}`);
    return replica;
  }

  /** The master serving `key`'s slot. */
  masterOf(key: string): PrivateRedis {
    const node = this.nodes.find((n) => n.running)!;
    const slot = Number(
      spawnSync('redis-cli', ['-p', String(node.port), 'cluster', 'keyslot', key], { encoding: 'utf8', timeout: 5000 }).stdout.trim(),
    );
    const owner = this.view().find((n) => n.master && n.slots.some(([a, b]) => slot >= a && slot <= b));
    return this.nodes.find((n) => n.port === owner?.port)!;
  }

  /** Every running node reports `cluster_state:fail` (the cluster refuses commands: CLUSTERDOWN). */
  failed(): boolean {
    return this.nodes.filter((n) => n.running).every((n) => this.info(n, 'info').includes('cluster_state:fail'));
  }

  /** How many keys each running master holds. */
  async keysPerMaster(): Promise<number[]> {
    const c = new Cluster(this.nodes.filter((n) => n.running).map((n) => ({ host: '127.0.0.1', port: n.port })));
    c.on('error', () => undefined);
    try {
      await c.cluster('INFO');
      return await Promise.all(c.nodes('master').map((n) => n.dbsize()));
    } finally {
      c.disconnect();
    }
  }

  async destroy(): Promise<void> {
    for (const n of this.nodes) await n.destroy();
  }
}
