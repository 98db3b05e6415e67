/**
 * A refused or failed call: the HTTP status, the service's result code (`response_code` of the
 * account service, `code` of the location service) and its message.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    /** `response_code` (account, e.g. `20441`) or `code` (location, e.g. `099`); `""` when the answer had none. */
    readonly code: string,
    message: string,
    /** The whole answer, as parsed. */
    readonly body: unknown,
  ) {
    super(message || `HTTP ${status}`);
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** The code of a network failure: the system error's (`ECONNREFUSED`, `ENOTFOUND`, …), or `TimeoutError` for `timeoutMs`. */
function codeOf(cause: unknown): string | undefined {
  for (let err = cause, depth = 0; typeof err === 'object' && err !== null && depth < 4; depth++) {
    const { code, name } = err as { code?: unknown; name?: unknown };
    if (typeof code === 'string') return code;
    if (name === 'TimeoutError') return 'TimeoutError';
    err = (err as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A request that got no answer: the service unreachable, the connection broken, or no whole
 * answer within `timeoutMs`. Names the method, the URL and the cause; `cause` is the error of
 * `fetch`, `code` the system error code when there is one (`ECONNREFUSED`, `TimeoutError`).
 */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly code: string | undefined;

  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
  ) {
    const code = codeOf(cause);
    super(`${method} ${url} failed: ${code ?? (cause instanceof Error ? cause.message : String(cause))}`, { cause });
    this.code = code;
  }
}

export function isNetworkError(err: unknown): err is NetworkError {
  return err instanceof NetworkError;
}
