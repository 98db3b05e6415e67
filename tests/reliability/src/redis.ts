import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The machine's Redis (`REDIS_URL`, as in CI, or the local default). */
export function redisUrl(): string {
  return process.env.REDIS_URL || 'redis://127.0.0.1:6379/0';
}

/** A key prefix of this run (`CACHE_KEY_PREFIX`), so that runs sharing one Redis never meet. */
export function runPrefix(tag: string): string {
  return `rel-${tag}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}:`;
}

/** Keys under `prefix` on the Redis at `url`. */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** Deletes the keys under `prefix`. */
export async function deleteUnder(redis: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(redis, prefix);
  if (keys.length) await redis.del(...keys);
}

export function connectRedis(url = redisUrl()): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', () => undefined);
  return redis;
}
