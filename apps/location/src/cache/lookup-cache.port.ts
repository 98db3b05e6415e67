/**
 * The cache port: answers of successful lookups by key. Adapters: Redis (`REDIS_URL`)
 * and an in-process LRU. A cache never fails a request: an adapter that cannot reach its
 * store answers "miss" and drops writes.
 */
export interface LookupCache {
  readonly name: string;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** False while the backing store cannot be reached or cannot serve (readiness reports it as degraded). */
  reachable?(): boolean;
  /**
   * One read of `key` (a key never written) that is no lookup: readiness asks it while the store
   * is not reachable, so that a store back in service is seen without waiting for traffic.
   */
  probe?(key: string): Promise<void>;
  close?(): Promise<void>;
}

/** DI token of the configured `LookupCache`. */
export const LOOKUP_CACHE = Symbol('LOOKUP_CACHE');
