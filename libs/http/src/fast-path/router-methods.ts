import type { Request } from 'express';

interface RouterLayer {
  route?: { _handlesMethod(method: string): boolean };
  match(path: string): boolean;
}

/**
 * Fast path "router method table": true when the request path is served by some route, but
 * not for this method (the exception filter answers 405 instead of 404). Express has no
 * public way to ask this, so the router's own layer table is read (`app.router.stack`,
 * `route._handlesMethod`); only failed requests pay for it (1.3 µs over 15 routes,
 * `bench/fast-path.mjs`).
 */
export function servedWithOtherMethod(req: Request): boolean {
  const router = (req.app as unknown as { router?: { stack?: RouterLayer[] } } | undefined)?.router;
  const stack = router?.stack ?? [];
  return stack.some((layer) => layer.route !== undefined && layer.match(req.path) && !layer.route._handlesMethod(req.method));
}
