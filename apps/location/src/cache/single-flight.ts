/**
 * Concurrent calls with the same key share one execution: the first runs `fn`, the others
 * wait for its result (or its error). The key is free again as soon as it settles.
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  run(key: string, fn: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running;
    // `fn` starts on the next microtask, after the key is registered.
    const started = Promise.resolve()
      .then(fn)
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }

  get size(): number {
    return this.inFlight.size;
  }
}
