import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type Metrics, elapsedSeconds } from './metrics';

/** Route label of requests that matched no route (kept constant so that scans cannot blow up the series). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The result code of an envelope: `response_code` (account) or `code` (location). */
export function resultCodeOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { response_code?: unknown; code?: unknown };
  if (typeof b.response_code === 'string') return b.response_code;
  if (typeof b.code === 'string') return b.code;
  return undefined;
}

type Routed = Request & { route?: { path?: unknown } };

/** The route template of a request (`/account/v1.0.1/auths/:auth_id`), read while the handler runs. */
function routeOf(req: Routed): string | undefined {
  const path = req.route?.path;
  if (typeof path !== 'string') return undefined;
  // Nest answers unknown paths from a catch-all route (`{/*splat}`): not a route of the API.
  if (CATCH_ALL.test(path)) return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${path}`;
}
const CATCH_ALL = /^\{?\/?\*[A-Za-z0-9_]*\}?$|^\/?\(\.\*\)$/;

/**
 * Express middleware recording `http_request_duration_seconds` and `api_results_total`.
 * The result code is read from the JSON body as it is sent, so answers of the controllers
 * and of the exception filter are counted alike.
 */
export function httpMetricsMiddleware(metrics: Metrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    let code: string | undefined;
    let route: string | undefined;
    const json = res.json.bind(res);
    res.json = (body?: unknown) => {
      code = resultCodeOf(body);
      route ??= routeOf(req);
      return json(body);
    };
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    (res as unknown as { writeHead: (...args: unknown[]) => Response }).writeHead = (...args: unknown[]) => {
      route ??= routeOf(req);
      return writeHead(...args);
    };
    res.once('finish', () => {
      metrics.observeHttp(req.method, route ?? UNMATCHED_ROUTE, res.statusCode, elapsedSeconds(start), code);
    });
    next();
  };
}
