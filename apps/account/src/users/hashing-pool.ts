import { availableParallelism } from 'node:os';

/** The pool's queue is full: the caller answers 429/503 with `Retry-After`. */
export class HashingBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('password hashing busy');
    this.name = 'HashingBusyError';
  }
}

/**
 * Bounds argon2 work to the cores of the instance (all but one by default): at most `concurrency` hashes or
 * verifications run at once (libuv's thread pool would otherwise take them four at a time and
 * queue the rest without limit, ahead of DNS and file work), and at most `maxQueued` wait;
 * past that a caller is refused at once (`HashingBusyError`) instead of queueing behind a
 * flood. Nothing else waits here: liveness and the other routes never queue behind hashing.
 */
export class HashingPool {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** Refusals since start (for the metrics). */
  refused = 0;

  constructor(
    // One core is left to the event loop (answers, liveness) when there are several.
    readonly concurrency: number = Math.max(1, availableParallelism() - 1),
    readonly maxQueued: number = 4 * concurrency,
  ) {
    if (concurrency < 1) throw new Error('concurrency must be at least 1');
  }

  get queued(): number {
    return this.waiting.length;
  }

  get running(): number {
    return this.active;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.maxQueued) {
        this.refused += 1;
        throw new HashingBusyError(1);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The turn passes straight to the next waiter (active stays the same).
      if (next) next();
      else this.active -= 1;
    }
  }
}
