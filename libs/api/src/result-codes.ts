/**
 * The result-code mechanism of both services: a code with its HTTP status and a message of at
 * most 32 characters. A module owns its codes (the account service's are in
 * `apps/account/src/common/account-codes.ts`); this file holds only the codes no module owns: the
 * common codes of the `response_code` envelope (the specifications' 9xxxx codes the framework
 * answers) and the location envelope's codes (docs/contract.md §6 and §8).
 *
 * A five-digit code is a three-digit interface number and a two-digit outcome; a module names its
 * interfaces and tags each handler with its number (`ApiInterface`).
 */
export interface ResultCode {
  /** The value of `response_code` (account) or `code` (location). */
  readonly code: string;
  readonly status: number;
  readonly message: string;
}

/** A result code of the table of a module. */
export const resultCode = (code: string, status: number, message: string): ResultCode => ({ code, status, message });
const rc = resultCode;

/** The common codes of the `response_code` envelope, answered by the framework for any interface. */
export const CommonCodes = {
  OK_CREATED: rc('90000', 201, 'success'),
  OK: rc('90000', 200, 'success'),
  INVALID_PARAMETER: rc('90100', 400, 'invalid parameters'),
  UNAUTHORIZED: rc('90401', 401, 'signature verification failed'),
  ROUTE_NOT_FOUND: rc('90404', 404, 'no such interface'),
  METHOD_NOT_ALLOWED: rc('90405', 405, 'method not allowed'),
  BODY_TOO_LARGE: rc('90413', 413, 'request body too large'),
  UNSUPPORTED_MEDIA_TYPE: rc('90415', 415, 'unsupported media type'),
  RATE_LIMITED: rc('90429', 429, 'too many requests'),
} as const satisfies Record<string, ResultCode>;

/** `interface number + 99`: unexpected failure; the message never says why. */
export function interfaceSystemError(interfaceNo: number | undefined, status = 500): ResultCode {
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
