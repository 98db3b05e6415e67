/**
 * The calls the console may make on an app's data through the proxy (docs/contract.md §12),
 * and the path ids each account route signs (docs/contract.md §2).
 */

export type PathIds = Partial<Record<'auth_id' | 'group_id' | 'user_login_id', string>>;

export interface AccountRoute {
  kind: 'account';
  method: 'GET' | 'POST' | 'PUT';
  /** The service path as sent (segments percent-encoded), e.g. `/account/v1.0.1/users/alice`. */
  path: string;
  pathIds: PathIds;
}

export interface LocationRoute {
  kind: 'location';
  operation: 'lbsQuery' | 'addressQuery' | 'baseStationQuery';
}

/** The own parameters of each location operation (docs/location-api.md). */
export const LOCATION_OPERATIONS = {
  lbsQuery: ['longitude', 'latitude'],
  addressQuery: ['city', 'address'],
  baseStationQuery: ['mcc', 'mnc', 'lac', 'cellid'],
} as const;

const ACCOUNT_PREFIX = '/account/v1.0.1/';

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The route of a proxied path (the part after `/console/api/{app_token}`), or undefined when
 * the console has no business calling it: only the account API's data routes and the three
 * location operations, with the methods they take.
 */
export function routeOf(method: string, rest: string): AccountRoute | LocationRoute | undefined {
  if (method === 'GET' && rest.startsWith('/lbsapi/api/')) {
    const operation = rest.slice('/lbsapi/api/'.length);
    return Object.hasOwn(LOCATION_OPERATIONS, operation)
      ? { kind: 'location', operation: operation as LocationRoute['operation'] }
      : undefined;
  }
  if (!rest.startsWith(ACCOUNT_PREFIX)) return undefined;
  const raw = rest.slice(ACCOUNT_PREFIX.length).split('/');
  const s = raw.map(decoded);
  // Empty and dot segments are refused: a URL parser would resolve `..` into another route.
  if (s.some((x) => x === undefined || x === '' || x === '.' || x === '..')) return undefined;
  const seg = s as string[];
  const at = (m: AccountRoute['method'], pathIds: PathIds = {}): AccountRoute | undefined =>
    m === method ? { kind: 'account', method: m, path: rest, pathIds } : undefined;
  const [head, a, b, c] = seg;
  switch (seg.length) {
    case 1:
      return head === 'auths' || head === 'authgroups' || head === 'users' || head === 'audit-events' ? at('GET') : undefined;
    case 2:
      if (head === 'auths') return method === 'GET' || method === 'POST' || method === 'PUT' ? at(method, { auth_id: a }) : undefined;
      if (head === 'authgroups') return method === 'GET' || method === 'POST' || method === 'PUT' ? at(method, { group_id: a }) : undefined;
      if (head === 'users') return method === 'GET' || method === 'POST' || method === 'PUT' ? at(method, { user_login_id: a }) : undefined;
      return undefined;
    case 3:
      if (head === 'users' && a === 'login') return at('POST', { user_login_id: b });
      if (head === 'users' && b === 'auths') return at('GET', { user_login_id: a });
      return undefined;
    case 4:
      return head === 'users' && b === 'auths' ? at('GET', { user_login_id: a, auth_id: c }) : undefined;
    default:
      return undefined;
  }
}
