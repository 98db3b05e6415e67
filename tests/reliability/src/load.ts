import { setTimeout as sleep } from 'node:timers/promises';

/** One request of a load run. */
export interface Sample {
  op: string;
  /** The record the request was about (e.g. the id created). */
  id?: string;
  /** ms since the run began. */
  start: number;
  end: number;
  /** HTTP status, or 0 when no HTTP answer came (connection refused, reset, ...). */
  status: number;
  /** `response_code` / `code` of the answer. */
  code?: string;
  /** The network error when `status` is 0. */
  error?: string;
  body?: unknown;
}

export interface LoadRun {
  readonly samples: Sample[];
  /** ms since the run began. */
  now(): number;
  /** Stops issuing requests and waits for the ones in flight (at most `graceMs`); returns how many never ended. */
  stop(graceMs?: number): Promise<number>;
}

type Answer = { status: number; body: unknown };

function codeOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const code = b.response_code ?? b.code;
  return typeof code === 'string' ? code : undefined;
}

function errorText(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

/**
 * Steady load: `workers` loops, each calling `step(worker, iteration, request)` and pausing
 * `pauseMs` between iterations. `request(op, id, send)` times one call and records it.
 */
export function steadyLoad(
  workers: number,
  step: (
    worker: number,
    iteration: number,
    request: (op: string, id: string | undefined, send: () => Promise<Answer>) => Promise<Sample>,
  ) => Promise<void>,
  pauseMs = 0,
): LoadRun {
  const began = Date.now();
  const now = () => Date.now() - began;
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  const request = async (op: string, id: string | undefined, sendFn: () => Promise<Answer>): Promise<Sample> => {
    const start = now();
    const p = sendFn().then(
      (res): Sample => ({ op, id, start, end: now(), status: res.status, code: codeOf(res.body), body: res.body }),
      (err: unknown): Sample => ({ op, id, start, end: now(), status: 0, error: errorText(err) }),
    );
    inFlight.add(p);
    try {
      const sample = await p;
      samples.push(sample);
      return sample;
    } finally {
      inFlight.delete(p);
    }
  };

  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; !stopped; i++) {
      await step(w, i, request);
      if (pauseMs) await sleep(pauseMs);
    }
  });

  return {
    samples,
    now,
    async stop(graceMs = 30_000) {
      stopped = true;
      const all = Promise.all(loops).then(() => true);
      const ended = await Promise.race([all, sleep(graceMs).then(() => false)]);
      return ended ? 0 : inFlight.size;
    },
  };
}

/** Counts of samples by `status/code`. */
export function tally(samples: Sample[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samples) {
    const key = s.status === 0 ? `net:${s.error}` : `${s.status}/${s.code ?? '-'}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}
