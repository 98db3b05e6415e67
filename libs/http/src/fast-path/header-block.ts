import type { Request, RequestHandler, Response } from 'express';

/** A header written (`[name, value]`) or removed (`[name, undefined]`), in the order the middleware did it. */
export type HeaderStep = readonly [name: string, value: string | number | readonly string[] | undefined];

/**
 * Fast path "header block": the headers a middleware that sets the same headers on every
 * answer (helmet with fixed options) would set, found once by running it against a
 * recording response, then written per answer by a loop of `setHeader` calls.
 *
 * Replaces helmet's per-request work (one function per header, each building or looking up
 * its value, through helmet's own middleware chain) with one precomputed list. The
 * middleware must not depend on the request (helmet's options here have no per-request
 * value: no nonce, no function directive); `recordHeaders` refuses one that calls `next`
 * with an error or does not call it at once. Gain: see README.md (security headers).
 */
export function recordHeaders(middleware: RequestHandler): HeaderStep[] {
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      steps.push([name, Array.isArray(value) ? [...(value as string[])] : (value as string | number)]);
      return recorder;
    },
    removeHeader(name: string) {
      steps.push([name, undefined]);
    },
    getHeader: () => undefined,
    hasHeader: () => false,
    locals: {},
  };
  let called = false;
  let failure: unknown;
  middleware({ headers: {}, method: 'GET', url: '/' } as unknown as Request, recorder as unknown as Response, (err?: unknown) => {
    called = true;
    failure = err;
  });
  if (!called || failure !== undefined) throw new Error('recordHeaders: the middleware did not pass the request on at once');
  return steps;
}

/** Writes `steps` on `res` (what the recorded middleware would have done). */
export function writeHeaderBlock(res: Response, steps: readonly HeaderStep[]): void {
  for (let i = 0; i < steps.length; i++) {
    const [name, value] = steps[i]!;
    if (value === undefined) res.removeHeader(name);
    else res.setHeader(name, value);
  }
}
