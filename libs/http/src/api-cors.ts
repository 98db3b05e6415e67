import type { NextFunction, Request, Response } from 'express';

/** The request headers a page may send to a signed API: the body type, the signing headers and the signed `user` header. */
export const CORS_REQUEST_HEADERS = ['Content-Type', 'X-App-Token', 'X-Timestamp', 'X-Nonce', 'X-Signature', 'user', 'X-Request-Id'];
/** The answer headers a page may read. */
export const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'X-Error-Id'];

/**
 * CORS for the paths under `prefix` only (docs/contract.md §12): a request from one of
 * `origins` is answered with `Access-Control-Allow-Origin` naming it (never `*`, never with
 * credentials), and its preflight with the methods and headers the API takes. Other paths
 * (an admin API, the console, health, metrics) and other origins get no CORS header.
 */
export function apiCors(prefix: string, origins: readonly string[], methods: readonly string[] = ['GET', 'POST', 'PUT']) {
  const allowed = new Set(origins);
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    const path = (req.originalUrl ?? req.url).split('?', 1)[0]!;
    if (origin === undefined || !allowed.has(origin) || !path.startsWith(prefix)) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', methods.join(', '));
      res.setHeader('Access-Control-Allow-Headers', CORS_REQUEST_HEADERS.join(', '));
      res.setHeader('Access-Control-Max-Age', '600');
      res.statusCode = 204;
      res.end();
      return;
    }
    next();
  };
}
