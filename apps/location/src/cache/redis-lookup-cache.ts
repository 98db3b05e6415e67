import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { Cluster, Redis } from 'ioredis';
import type { LookupCache } from './lookup-cache.port';

export interface RedisLookupCacheOptions {
  /** A command slower than this counts as a miss (or a dropped write). */
  commandTimeoutMs: number;
  /** After a failed command, Redis is left alone this long before the next try. */
  pauseAfterFailureMs?: number;
  /** Longest wait between two reconnection attempts. */
  maxReconnectDelayMs?: number;
  /**
   * PEM bundle that verifies the certificate of a `rediss://` server (a private CA); the
   * system CAs otherwise. Verification is never turned off.
   */
  tlsCa?: string;
  /** Called on every failed command and connection error (metrics). */
  onError?: (operation: 'get' | 'set' | 'connection', err: unknown) => void;
}

/** A seed node of a Redis Cluster. */
export interface ClusterNode {
  host: string;
  port: number;
}

/** `host:port,host:port,...` (`REDIS_CLUSTER_NODES`) → seed nodes. */
export function parseClusterNodes(text: string): ClusterNode[] {
  return text.split(',').map((entry) => {
    const at = entry.lastIndexOf(':');
    return { host: entry.slice(0, at), port: Number(entry.slice(at + 1)) };
  });
}

/**
 * Redis (a `redis://` URL) or a Redis Cluster (seed nodes) through ioredis. Never fails a request: while Redis is unreachable every read is a
 * miss and every write is dropped, without waiting (no offline queue, a short command
 * timeout, a pause after a failure). ioredis reconnects by itself; caching resumes as soon
 * as the connection is ready again. One warning when Redis goes away, one notice when it
 * is back.
 */
export class RedisLookupCache implements LookupCache {
  readonly name = 'redis';
  private readonly logger = new Logger('Cache');
  private readonly redis: Redis | Cluster;
  private readonly pauseMs: number;
  private readonly commandTimeoutMs: number;
  private available = true;
  private pausedUntil = 0;
  private closing = false;
  private readonly onError?: RedisLookupCacheOptions['onError'];

  constructor(target: string | ClusterNode[], options: RedisLookupCacheOptions) {
    this.onError = options.onError;
    this.pauseMs = options.pauseAfterFailureMs ?? 1000;
    this.commandTimeoutMs = options.commandTimeoutMs;
    const maxDelay = options.maxReconnectDelayMs ?? 1000;
    const connection = {
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: Math.max(1000, options.commandTimeoutMs * 4),
      maxRetriesPerRequest: 0,
      connectionName: 'geoaccount-location',
      ...(options.tlsCa !== undefined ? { tls: { ca: [options.tlsCa] } } : {}),
    };
    const retryStrategy = (times: number) => Math.min(100 * times, maxDelay);
    // A cluster follows failovers by itself: MOVED answers and connection errors make it
    // reload the slot map, so the slots of a dead master are served by its promoted replica.
    this.redis =
      typeof target === 'string'
        ? new Redis(target, { ...connection, enableOfflineQueue: false, retryStrategy })
        : new Cluster(target, {
            redisOptions: connection,
            enableOfflineQueue: false,
            clusterRetryStrategy: retryStrategy,
            retryDelayOnFailover: 50,
            // A cluster that cannot serve answers CLUSTERDOWN: handed back at once (a miss,
            // counted), not retried until the command times out.
            retryDelayOnClusterDown: 0,
          });
    this.redis.on('error', (err: Error) => {
      if (!this.closing) this.onError?.('connection', err);
      this.down(err);
    });
    // A lost connection is an outage at once, not only when a reconnection attempt fails:
    // reads skip Redis from this moment, so no failed command would ever report it.
    this.redis.on('close', () => this.down(new Error('connection closed')));
    this.redis.on('ready', () => this.up());
  }

  /** Waits (a bounded time) for the first connection, so the first requests can use it. */
  async ready(timeoutMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    const ac = new AbortController();
    const outcome = await Promise.race([
      once(this.redis, 'ready', { signal: ac.signal }).then(() => true),
      sleep(timeoutMs, false, { signal: ac.signal }),
    ]).catch(() => false);
    ac.abort();
    return outcome;
  }

  async get(key: string): Promise<string | undefined> {
    if (!this.usable()) return undefined;
    try {
      const value = await this.bounded(this.redis.get(key));
      this.succeeded();
      return value ?? undefined;
    } catch (err) {
      this.onError?.('get', err);
      this.failed(err);
      return undefined;
    }
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    if (!this.usable()) return;
    try {
      await this.bounded(this.redis.set(key, value, 'EX', ttlSeconds));
      this.succeeded();
    } catch (err) {
      this.onError?.('set', err);
      this.failed(err);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.redis.status === 'ready') {
      await Promise.race([this.redis.quit().catch(() => undefined), sleep(1000)]);
    }
    this.redis.disconnect();
  }

  /** Connected, and the last command succeeded (a cluster answering CLUSTERDOWN is connected but cannot serve). */
  reachable(): boolean {
    return this.redis.status === 'ready' && this.available;
  }

  /**
   * The command's answer, or a failure after `commandTimeoutMs`: a cluster that re-routes a
   * command during a failover can hold it longer than the per-connection `commandTimeout`.
   */
  private bounded<T>(command: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis command timed out after ${this.commandTimeoutMs} ms`)), this.commandTimeoutMs);
    });
    return Promise.race([command, limit]).finally(() => clearTimeout(timer));
  }

  private usable(): boolean {
    return this.redis.status === 'ready' && performance.now() >= this.pausedUntil;
  }

  private succeeded(): void {
    if (!this.available) this.up();
  }

  private failed(err: unknown): void {
    this.pausedUntil = performance.now() + this.pauseMs;
    this.down(err);
  }

  private down(err: unknown): void {
    if (!this.available || this.closing) return;
    this.available = false;
    const why = err instanceof Error ? err.message : String(err);
    this.logger.warn(`Redis unavailable (${why}); answering from the upstream without a cache until it is back`);
  }

  private up(): void {
    this.pausedUntil = 0;
    if (this.available) return;
    this.available = true;
    this.logger.log('Redis available again; caching resumed');
  }
}
