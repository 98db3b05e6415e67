/** Thrown when a place did not free up in time. */
export class GateTimeoutError extends Error {
  constructor() {
    super('no free place in time');
    this.name = 'GateTimeoutError';
  }
}

interface Line {
  active: number;
  waiting: { resolve: () => void; timer: NodeJS.Timeout }[];
}

/**
 * At most `places` concurrent holders per key in this process; the others wait in line (in
 * memory, first come first served) until a holder leaves, or fail after `timeoutMs`.
 */
export class AttemptGate {
  private readonly lines = new Map<string, Line>();

  constructor(private readonly places: number) {}

  /** Waits for a place of `key`; the caller must `leave(key)` once done. */
  enter(key: string, timeoutMs: number): Promise<void> {
    let line = this.lines.get(key);
    if (!line) {
      line = { active: 0, waiting: [] };
      this.lines.set(key, line);
    }
    if (line.active < this.places) {
      line.active++;
      return Promise.resolve();
    }
    const waitingLine = line;
    return new Promise<void>((resolve, reject) => {
      const entry = {
        resolve,
        timer: setTimeout(() => {
          waitingLine.waiting.splice(waitingLine.waiting.indexOf(entry), 1);
          reject(new GateTimeoutError());
        }, timeoutMs),
      };
      waitingLine.waiting.push(entry);
    });
  }

  /** Gives the place of `key` to the next in line, or frees it. */
  leave(key: string): void {
    const line = this.lines.get(key);
    if (!line) return;
    const next = line.waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.resolve();
      return;
    }
    line.active--;
    if (line.active <= 0) this.lines.delete(key);
  }

  /** Keys with holders or waiters (for tests). */
  get size(): number {
    return this.lines.size;
  }
}
