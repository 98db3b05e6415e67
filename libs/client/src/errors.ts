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
