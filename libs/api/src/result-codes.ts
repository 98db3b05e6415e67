/**
 * The one table of result codes of both services: the specifications' codes plus the
 * contract's extensions (CONTRACT §6 and §8). Every code carries the HTTP status it is
 * answered with and a message of at most 32 characters.
 *
 * Account codes are five digits: a three-digit interface number and a two-digit outcome.
 * Interface numbers: 100-107 auths and groups, 200-206 users, 207 audit events (see `AccountInterface`).
 */
export interface ResultCode {
  /** The value of `response_code` (account) or `code` (location). */
  readonly code: string;
  readonly status: number;
  readonly message: string;
}

const rc = (code: string, status: number, message: string): ResultCode => ({ code, status, message });

/** Account interface numbers: the first three digits of a service-specific code. */
export const AccountInterface = {
  CREATE_AUTH: 100,
  MODIFY_AUTH: 101,
  LIST_AUTHS: 102,
  GET_AUTH: 103,
  CREATE_GROUP: 104,
  MODIFY_GROUP: 105,
  LIST_GROUPS: 106,
  GET_GROUP: 107,
  REGISTER_USER: 200,
  MODIFY_USER: 201,
  LIST_USERS: 202,
  GET_USER: 203,
  LOGIN: 204,
  USER_AUTHS: 205,
  USER_HAS_AUTH: 206,
  AUDIT_EVENTS: 207,
} as const;
export type AccountInterfaceNo = (typeof AccountInterface)[keyof typeof AccountInterface];

export const AccountCodes = {
  // common
  OK_CREATED: rc('90000', 201, 'success'),
  OK: rc('90000', 200, 'success'),
  INVALID_PARAMETER: rc('90100', 400, 'invalid parameters'),
  INVALID_USER_INFO: rc('90101', 400, 'invalid user information'),
  UNAUTHORIZED: rc('90401', 401, 'signature verification failed'),
  ROUTE_NOT_FOUND: rc('90404', 404, 'no such interface'),
  METHOD_NOT_ALLOWED: rc('90405', 405, 'method not allowed'),
  BODY_TOO_LARGE: rc('90413', 413, 'request body too large'),
  UNSUPPORTED_MEDIA_TYPE: rc('90415', 415, 'unsupported media type'),
  RATE_LIMITED: rc('90429', 429, 'too many requests'),
  /** Stored personal data that cannot be decrypted (docs/contract.md §6): names no data. */
  PII_UNAVAILABLE: rc('90503', 503, 'personal data unavailable'),
  // auths
  AUTH_EXISTS: rc('10010', 409, 'auth id already exists'),
  AUTH_PARENT_MISSING: rc('10021', 400, 'parent auth does not exist'),
  AUTH_NOT_FOUND_ON_MODIFY: rc('10130', 404, 'auth id does not exist'),
  AUTH_PARENT_MISSING_ON_MODIFY: rc('10131', 400, 'parent auth does not exist'),
  AUTH_LIST_EMPTY: rc('10201', 200, 'query succeeded, no data'),
  AUTH_NOT_FOUND: rc('10301', 404, 'query succeeded, no data'),
  // auth groups
  GROUP_EXISTS: rc('10420', 409, 'group id already exists'),
  GROUP_AUTH_MISSING: rc('10422', 400, 'auth information does not exist'),
  GROUP_NOT_FOUND_ON_MODIFY: rc('10530', 404, 'group id does not exist'),
  GROUP_AUTH_MISSING_ON_MODIFY: rc('10532', 400, 'auth information does not exist'),
  GROUP_LIST_EMPTY: rc('10611', 200, 'query succeeded, no data'),
  GROUP_NOT_FOUND: rc('10701', 404, 'query succeeded, no data'),
  // users
  USER_EXISTS: rc('20020', 409, 'login id already exists'),
  USER_NOT_FOUND_ON_MODIFY: rc('20130', 404, 'login id does not exist'),
  USER_LIST_EMPTY: rc('20201', 200, 'query succeeded, no data'),
  USER_NOT_FOUND: rc('20301', 404, 'query succeeded, no data'),
  LOGIN_FAILED: rc('20441', 401, 'login verification failed'),
  LOGIN_USER_TYPE: rc('20442', 401, 'user type incorrect'),
  LOGIN_LOCKED: rc('20443', 403, 'too many failed logins'),
  LOGIN_DIRECTORY_UNAVAILABLE: rc('20499', 503, 'directory unavailable'),
  // effective permissions (beyond the spec, built the spec's way)
  USER_AUTHS_USER_MISSING: rc('20501', 404, 'query succeeded, no data'),
  USER_AUTHS_EMPTY: rc('20511', 200, 'query succeeded, no data'),
  USER_HAS_AUTH_USER_MISSING: rc('20601', 404, 'query succeeded, no data'),
  // audit trail (CONTRACT §10)
  AUDIT_EVENTS_EMPTY: rc('20701', 200, 'query succeeded, no data'),
} as const satisfies Record<string, ResultCode>;

/** `interface number + 99`: unexpected failure; the message never says why. */
export function accountSystemError(interfaceNo: number | undefined, status = 500): ResultCode {
  return rc(interfaceNo ? `${interfaceNo}99` : '90099', status, 'system exception');
}

export const LbsCodes = {
  OK_UPSTREAM: rc('000', 200, 'success'),
  OK_CACHE: rc('000', 200, 'success (cache)'),
  BAD_SIGNATURE: rc('100', 401, 'verification failed'),
  INVALID_PARAMETER: rc('099', 400, 'invalid parameter'),
  NOT_FOUND: rc('099', 404, 'nothing found'),
  UPSTREAM_UNAVAILABLE: rc('099', 503, 'upstream unavailable'),
  ROUTE_NOT_FOUND: rc('099', 404, 'no such operation'),
  METHOD_NOT_ALLOWED: rc('099', 405, 'method not allowed'),
  BODY_TOO_LARGE: rc('099', 413, 'request too large'),
  UNSUPPORTED_MEDIA_TYPE: rc('099', 415, 'unsupported media type'),
  RATE_LIMITED: rc('099', 429, 'too many requests'),
  SYSTEM_ERROR: rc('099', 500, 'system exception'),
} as const satisfies Record<string, ResultCode>;

/** `lbsStat` values: 0 failure, 1 computed by the upstream, 2 served from the cache. */
export const LbsStat = { FAILURE: '0', UPSTREAM: '1', CACHE: '2' } as const;
export type LbsStatValue = (typeof LbsStat)[keyof typeof LbsStat];
