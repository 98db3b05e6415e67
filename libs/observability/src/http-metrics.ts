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

/**
 * The label of each route template already seen: the template is the same for every request
 * of a route, so the catch-all test runs once per template (the request observer's fast path).
 */
const ROUTE_LABELS = new Map<string, string>();
const MAX_ROUTE_LABELS = 10_000;

/** The route template of an answered request (`/account/v1.0.1/auths/:auth_id`), `unmatched` if none. */
export function routeOf(req: Request): string {
  const path = (req as Routed).route?.path;
  if (typeof path !== 'string') return UNMATCHED_ROUTE;
  const base = req.baseUrl ?? '';
  const key = base === '' ? path : `${base}\u0000${path}`;
  const known = ROUTE_LABELS.get(key);
  if (known !== undefined) return known;
  // Nest answers unknown paths from a catch-all route (`{/*splat}`): not a route of the API.
  const label = CATCH_ALL.test(path) ? UNMATCHED_ROUTE : `${base}${path}`;
  // Templates are the application's, not the clients': the bound only guards a mistake.
  if (ROUTE_LABELS.size < MAX_ROUTE_LABELS) ROUTE_LABELS.set(key, label);
  return label;
}
const CATCH_ALL = /^\{?\/?\*[A-Za-z0-9_]*\}?$|^\/?\(\.\*\)$/;
