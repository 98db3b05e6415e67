/**
 * docs/contract.md §13: whatever the cache hands back is checked before it is served; §1
 * `CACHE_SCOPE=app` keeps each app's entries apart.
 */
import { Redis } from 'ioredis';
import { type LocationSession, REDIS_URL, deletePrefix, keysUnder, runPrefix, startLocation } from './support/location-session';

describe('cached location values', () => {
  const prefix = runPrefix('trust');
  let s: LocationSession;
  let redis: Redis;

  beforeAll(async () => {
    s = await startLocation({ REDIS_URL, CACHE_KEY_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: '0', REDIS_COMMAND_TIMEOUT_MS: '5000' });
    redis = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    await s?.close();
    redis?.disconnect();
    await deletePrefix(REDIS_URL, prefix);
    await new Promise((r) => setTimeout(r, 2100));
  });

  async function rejectedCount(): Promise<number> {
    const text = await (await fetch(`${s.url}/metrics`)).text();
    return text
      .split('\n')
      .filter((l) => l.startsWith('cache_rejected_total{') && l.includes('operation="lbsQuery"'))
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  }

  const POISONS: Record<string, (good: Record<string, string>) => string> = {
    'duplicate keys overriding the envelope': (g) => `${JSON.stringify(g).slice(0, -1)},"resultDesc":"pwned","lbsStat":"9","address":"x","address":"evil"}`,
    'a null field': (g) => JSON.stringify({ ...g, address: null }),
    'a nested field': (g) => JSON.stringify({ ...g, address: { text: 'evil' } }),
    'a field too many': (g) => JSON.stringify({ ...g, extra: 'evil' }),
    'a field missing': (g) => JSON.stringify({ ...g, address: undefined }),
    'an array': () => '["evil"]',
    'not JSON': () => 'evil',
  };

  it.each(Object.keys(POISONS))('treats a cached value with %s as a miss: recomputed, overwritten and counted', async (poison) => {
    const point = { longitude: '116.397128', latitude: '39.916527' };
    const first = await s.client.lbsQuery(point);
    expect(first.status).toBe(200);
    const keys = (await keysUnder(REDIS_URL, prefix)).filter((k) => k.includes('lbsQuery'));
    expect(keys).toHaveLength(1);
    const good = JSON.parse((await redis.get(keys[0]!))!) as Record<string, string>;
    await redis.set(keys[0]!, POISONS[poison]!(good), 'EX', 600);
    const before = await rejectedCount();

    const answer = await s.client.lbsQuery(point);
    expect(answer.status).toBe(200);
    // Recomputed: the service's own answer, not the cache's (lbsStat 1, no injected field).
    expect(answer.body).toEqual({ ...(first.body as object), lbsStat: '1', resultDesc: 'success' });
    expect(await rejectedCount()).toBe(before + 1);
    // Overwritten: the next one is a clean hit.
    expect(JSON.parse((await redis.get(keys[0]!))!)).toEqual(good);
    const hit = await s.client.lbsQuery(point);
    expect(hit.body).toEqual({ ...(first.body as object), lbsStat: '2', resultDesc: 'success (cache)' });
  });

  it('CACHE_SCOPE=app: an app gets entries of its own, apart from the shared ones', async () => {
    const point = { longitude: '121.4737', latitude: '31.2304' };
    await s.client.lbsQuery(point);
    const shared = (await keysUnder(REDIS_URL, prefix)).filter((k) => k.includes('lbsQuery'));
    const scoped = await startLocation({ REDIS_URL, CACHE_KEY_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: '0', CACHE_SCOPE: 'app' });
    try {
      // Not answered from the shared entry of the same place (lbsStat 1), then from its own (2).
      expect((await scoped.client.lbsQuery(point)).body).toMatchObject({ lbsStat: '1' });
      expect((await scoped.client.lbsQuery(point)).body).toMatchObject({ lbsStat: '2' });
      const after = (await keysUnder(REDIS_URL, prefix)).filter((k) => k.includes('lbsQuery'));
      expect(after.length).toBe(shared.length + 1);
    } finally {
      await scoped.close();
    }
  });
});
