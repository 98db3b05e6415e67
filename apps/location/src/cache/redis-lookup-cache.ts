import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { LookupCache } from './lookup-cache.port';

export interface RedisLookupCacheOptions {
  /** A command slower than this counts as a miss (or a dropped write). */
  commandTimeoutMs: number;
  /** After a failed command, Redis is left alone this long before the next try. */
  pauseAfterFailureMs?: number;
  /** Longest wait between two reconnection attempts. */
  maxReconnectDelayMs?: number;
  /** Called on every failed command and connection error (metrics). */
  onError?: (operation: 'get' | 'set' | 'connection', err: unknown) => void;
}

/**
 * Redis through ioredis. Never fails a request: while Redis is unreachable every read is a
 * miss and every write is dropped, without waiting (no offline queue, a short command
 * timeout, a pause after a failure). ioredis reconnects by itself; caching resumes as soon
 * as the connection is ready again. One warning when Redis goes away, one notice when it
 * is back.
 */
export class RedisLookupCache implements LookupCache {
  readonly name = 'redis';
  private readonly logger = new Logger('Cache');
  private readonly redis: Redis;
  private readonly pauseMs: number;
  private available = true;
  private pausedUntil = 0;
  private closing = false;
  private readonly onError?: RedisLookupCacheOptions['onError'];

  constructor(url: string, options: RedisLookupCacheOptions) {
    this.onError = options.onError;
    this.pauseMs = options.pauseAfterFailureMs ?? 1000;
    const maxDelay = options.maxReconnectDelayMs ?? 1000;
    this.redis = new Redis(url, {
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: Math.max(1000, options.commandTimeoutMs * 4),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(100 * times, maxDelay),
      connectionName: 'geoaccount-location',
    });
    this.redis.on('error', (err: Error) => {
      if (!this.closing) this.onError?.('connection', err);
      this.down(err);
    });
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
      const value = await this.redis.get(key);
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
      await this.redis.set(key, value, 'EX', ttlSeconds);
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

  reachable(): boolean {
    return this.redis.status === 'ready';
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
