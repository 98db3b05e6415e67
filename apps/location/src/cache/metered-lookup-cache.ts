import type { CacheMetrics } from '@geoaccount/observability';
import type { LookupCache } from './lookup-cache.port';

/** Counts hits and misses of a cache (`cache_lookups_total`). */
export class MeteredLookupCache implements LookupCache {
  constructor(
    private readonly inner: LookupCache,
    private readonly metrics: CacheMetrics,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.inner.get(key);
    if (value === undefined) this.metrics.miss();
    else this.metrics.hit();
    return value;
  }

  set(key: string, value: string, ttlSeconds: number): Promise<void> {
    return this.inner.set(key, value, ttlSeconds);
  }

  reachable(): boolean {
    return this.inner.reachable?.() ?? true;
  }

  /** A read that is no lookup: not counted as a hit or a miss (its failure is counted as an error by the backend). */
  async probe(key: string): Promise<void> {
    await this.inner.get(key);
  }

  async close(): Promise<void> {
    await this.inner.close?.();
  }
}
