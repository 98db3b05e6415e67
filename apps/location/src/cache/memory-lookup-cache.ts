import { LRUCache } from 'lru-cache';
import type { LookupCache } from './lookup-cache.port';

/** In-process LRU with a TTL per entry (used when `REDIS_URL` is unset). */
export class MemoryLookupCache implements LookupCache {
  readonly name = 'memory';
  private readonly lru: LRUCache<string, string>;

  constructor(maxEntries: number) {
    this.lru = new LRUCache<string, string>({ max: maxEntries, ttlAutopurge: false });
  }

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.lru.get(key));
  }

  set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.lru.set(key, value, { ttl: ttlSeconds * 1000 });
    return Promise.resolve();
  }

  get size(): number {
    return this.lru.size;
  }

  close(): Promise<void> {
    this.lru.clear();
    return Promise.resolve();
  }
}
