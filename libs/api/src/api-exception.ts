import type { ResultCode } from './result-codes';

const MAX_MESSAGE = 32;

/** Clip a message to the contract's 32 characters. */
export function clipMessage(message: string): string {
  return message.length <= MAX_MESSAGE ? message : message.slice(0, MAX_MESSAGE);
}

/**
 * An error that carries its result code. The exception filter renders it into the
 * service's envelope; `message` overrides the table's text (e.g. to name a field).
 */
export class ApiException extends Error {
  constructor(
    readonly result: ResultCode,
    message?: string,
    /** Extra body fields of a failure (e.g. `count: "0"` of an empty list). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(clipMessage(message ?? result.message));
    this.name = 'ApiException';
  }
}

/**
 * An `ApiException` the caller may retry later: the answer carries `Retry-After` (a rate
 * limit, a full work queue).
 */
export class RetryLaterException extends ApiException {
  constructor(
    result: ResultCode,
    readonly retryAfterSeconds: number,
    message?: string,
  ) {
    super(result, message);
    this.name = 'RetryLaterException';
  }
}

/** 90100 / 099 with a message that names the offending field. */
export class InvalidParameterException extends Error {
  constructor(
    readonly field: string,
    readonly reason = 'invalid',
  ) {
    super(clipMessage(`${reason} ${field}`));
    this.name = 'InvalidParameterException';
  }
}
