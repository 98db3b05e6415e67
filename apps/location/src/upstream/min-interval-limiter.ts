import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Spaces the calls of this process at least `intervalMs` apart (e.g. Nominatim's
 * "an absolute maximum of 1 request per second"). Callers queue in arrival order; a caller
 * whose signal aborts while waiting leaves the queue (its slot stays used).
 */
export class MinIntervalLimiter {
  private nextSlot = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    const wait = slot - now;
    if (wait > 0) await sleep(wait, undefined, { signal });
  }
}
