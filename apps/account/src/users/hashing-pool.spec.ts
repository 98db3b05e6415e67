import { HashingBusyError, HashingPool } from './hashing-pool';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('HashingPool', () => {
  it('runs at most `concurrency` at once, queues up to `maxQueued`, and refuses the rest at once', async () => {
    const pool = new HashingPool(2, 3);
    const gates = Array.from({ length: 5 }, () => deferred());
    let running = 0;
    let most = 0;
    const jobs = gates.map((g) =>
      pool.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await g.promise;
        running -= 1;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(pool.running).toBe(2);
    expect(pool.queued).toBe(3);
    await expect(pool.run(async () => undefined)).rejects.toBeInstanceOf(HashingBusyError);
    expect(pool.refused).toBe(1);
    for (const g of gates) g.resolve();
    await Promise.all(jobs);
    expect(most).toBe(2);
    expect(pool.running).toBe(0);
    expect(pool.queued).toBe(0);
    // Free again.
    await expect(pool.run(async () => 7)).resolves.toBe(7);
  });

  it('gives the turn back when the work fails', async () => {
    const pool = new HashingPool(1, 0);
    await expect(pool.run(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(pool.run(async () => 1)).resolves.toBe(1);
  });
});
