import { readFileSync } from 'node:fs';
import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Metrics } from '@geoaccount/observability';
import { LocationConfig } from '../config/location.config';
import { cacheErrorReason } from './cache-errors';
import { LOOKUP_CACHE, type LookupCache } from './lookup-cache.port';
import { MemoryLookupCache } from './memory-lookup-cache';
import { MeteredLookupCache } from './metered-lookup-cache';
import { RedisLookupCache, parseClusterNodes } from './redis-lookup-cache';

/**
 * A Redis Cluster when `REDIS_CLUSTER_NODES` is set, else Redis when `REDIS_URL` is set,
 * else an in-process LRU; hits, misses and Redis errors go to `metrics`.
 */
export async function createLookupCache(config: LocationConfig, metrics?: Metrics): Promise<LookupCache> {
  const meter = (cache: LookupCache) => (metrics ? new MeteredLookupCache(cache, metrics.cache()) : cache);
  const target = config.REDIS_CLUSTER_NODES ? parseClusterNodes(config.REDIS_CLUSTER_NODES) : config.REDIS_URL;
  if (!target) return meter(new MemoryLookupCache(config.CACHE_MAX_ENTRIES));
  const cache = new RedisLookupCache(target, {
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
    tlsCa: config.REDIS_CA_FILE ? readFileSync(config.REDIS_CA_FILE, 'utf8') : undefined,
    onError: (operation, err) => metrics?.cache().error(operation, cacheErrorReason(err)),
  });
  // Redis down at start is not fatal: the service answers from the upstream meanwhile.
  await cache.ready(2000);
  return meter(cache);
}

@Module({})
export class CacheModule implements OnApplicationShutdown {
  constructor(@Inject(LOOKUP_CACHE) private readonly cache: LookupCache) {}

  static forRoot(): DynamicModule {
    return {
      module: CacheModule,
      providers: [
        {
          provide: LOOKUP_CACHE,
          inject: [LocationConfig, Metrics],
          useFactory: (config: LocationConfig, metrics: Metrics) => createLookupCache(config, metrics),
        },
      ],
      exports: [LOOKUP_CACHE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.cache.close?.();
  }
}
