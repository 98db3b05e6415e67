import { MinIntervalLimiter } from './min-interval-limiter';

describe('MinIntervalLimiter', () => {
  it('spaces calls at least the interval apart, in arrival order', async () => {
    const limiter = new MinIntervalLimiter(100);
    const started = performance.now();
    const at: number[] = [];
    // The first caller does not wait at all: it goes before anything queued on the event loop.
    let firstBeforeNextTurn: boolean | undefined;
    const nextTurn = new Promise<void>((resolve) => setImmediate(resolve)).then(() => (firstBeforeNextTurn ??= false));
    await Promise.all([
      ...[0, 1, 2].map(async () => {
        await limiter.acquire();
        firstBeforeNextTurn ??= true;
        at.push(performance.now() - started);
      }),
      nextTurn,
    ]);
    expect(firstBeforeNextTurn).toBe(true);
    // the others at least the interval apart (timers never fire early; a busy machine only makes them later)
    expect(at[1]).toBeGreaterThanOrEqual(95);
    expect(at[2]).toBeGreaterThanOrEqual(195);
  });

  it('lets a waiting caller leave when its signal aborts', async () => {
    const limiter = new MinIntervalLimiter(1000);
    await limiter.acquire();
    const ac = new AbortController();
    const waiting = limiter.acquire(ac.signal);
    ac.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow();
  });
});
