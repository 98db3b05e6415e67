import type { Request } from 'express';

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

/** The route template of an answered request (`/account/v1.0.1/auths/:auth_id`), `unmatched` if none. */
export function routeOf(req: Request): string {
  const path = (req as Routed).route?.path;
  if (typeof path !== 'string') return UNMATCHED_ROUTE;
  // Nest answers unknown paths from a catch-all route (`{/*splat}`): not a route of the API.
  if (CATCH_ALL.test(path)) return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${path}`;
}
const CATCH_ALL = /^\{?\/?\*[A-Za-z0-9_]*\}?$|^\/?\(\.\*\)$/;
