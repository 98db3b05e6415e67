import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryLookupCache } from './memory-lookup-cache';

describe('MemoryLookupCache', () => {
  it('keeps values for their TTL', async () => {
    const cache = new MemoryLookupCache(10);
    await cache.set('a', 'A', 1);
    expect(await cache.get('a')).toBe('A');
    expect(await cache.get('b')).toBeUndefined();
    await sleep(1100);
    expect(await cache.get('a')).toBeUndefined();
  });

  it('evicts the least recently used entry beyond its capacity', async () => {
    const cache = new MemoryLookupCache(2);
    await cache.set('a', 'A', 60);
    await cache.set('b', 'B', 60);
    await cache.get('a');
    await cache.set('c', 'C', 60);
    expect(await cache.get('a')).toBe('A');
    expect(await cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
