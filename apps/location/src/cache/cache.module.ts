import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { LocationConfig } from '../config/location.config';
import { LOOKUP_CACHE, type LookupCache } from './lookup-cache.port';
import { MemoryLookupCache } from './memory-lookup-cache';
import { RedisLookupCache } from './redis-lookup-cache';

/** Redis when `REDIS_URL` is set, else an in-process LRU. */
export async function createLookupCache(config: LocationConfig): Promise<LookupCache> {
  if (!config.REDIS_URL) return new MemoryLookupCache(config.CACHE_MAX_ENTRIES);
  const cache = new RedisLookupCache(config.REDIS_URL, { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS });
  // Redis down at start is not fatal: the service answers from the upstream meanwhile.
  await cache.ready(2000);
  return cache;
}

@Module({})
export class CacheModule implements OnApplicationShutdown {
  constructor(@Inject(LOOKUP_CACHE) private readonly cache: LookupCache) {}

  static forRoot(): DynamicModule {
    return {
      module: CacheModule,
      providers: [{ provide: LOOKUP_CACHE, inject: [LocationConfig], useFactory: (config: LocationConfig) => createLookupCache(config) }],
      exports: [LOOKUP_CACHE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.cache.close?.();
  }
}
