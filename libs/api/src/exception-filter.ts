import { randomUUID } from 'node:crypto';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiException, InvalidParameterException, RetryLaterException } from './api-exception';
import type { EnvelopeStyle } from './envelope';
import type { ResultCode } from './result-codes';

interface Rendered {
  result: ResultCode;
  message: string;
  extra?: Record<string, unknown>;
  /** Of an unexpected failure: the id of its log line, sent as `X-Error-Id`. */
  errorId?: string;
}

/** Errors of drivers that mean "a dependency is down", answered 503 rather than 500. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '53300']);
/**
 * PostgreSQL SQLSTATEs of a server that is down or refuses connections (docs/contract.md §13): class 08
 * (connection exception), 57P01-57P05 (shut down, crashed, starting, dropped, idle timeout) and,
 * above, 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-5])$/;
/**
 * 55000 (object not in prerequisite state) means "refusing connections" only at connect (a
 * database with `ALLOW_CONNECTIONS false`, docs/contract.md §13); raised by a statement it is a
 * failure of that statement (500).
 */
const UNAVAILABLE_AT_CONNECT = '55000';

export function isUnavailableError(err: unknown): boolean {
  return unavailable(err, false);
}

/** `ofQuery`: `err` is the driver error of a failed statement (TypeORM's `QueryFailedError`). */
function unavailable(err: unknown, ofQuery: boolean): boolean {
  // Not `instanceof Error`: errors of Node's own modules come from another realm under jest's VM.
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (code === UNAVAILABLE_AT_CONNECT && !ofQuery && !('query' in err)) return true;
  const msg = String((err as { message?: unknown }).message ?? '');
  if (/Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Connection is closed/i.test(msg)) return true;
  const cause = (err as { cause?: unknown }).cause ?? (err as { driverError?: unknown }).driverError;
  return cause !== undefined && cause !== err && unavailable(cause, ofQuery || 'query' in err);
}

/**
 * What the filter needs of the HTTP layer; libs/http's fast path provides both
 * (`applyHttpDefaults` passes them).
 */
export interface ErrorAnswerHttp {
  /** Answers `body` as JSON with `status` (and keeps it as the sent body for the metrics). */
  writeJson(res: Response, status: number, body: unknown): void;
  /** True when the request path is served by some route, but not for this method (405 instead of 404). */
  servedWithOtherMethod(req: Request): boolean;
}

/**
 * Renders every error — ours, Nest's and the body parsers' — into the service's envelope.
 * Unexpected errors are logged with an error id and answered without details, the id in the
 * `X-Error-Id` header.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  constructor(
    private readonly style: EnvelopeStyle,
    private readonly http: ErrorAnswerHttp,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const { result, message, extra, errorId } = this.render(exception, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    // The body stays "system exception"; the id finds the log line with the details.
    if (errorId) res.setHeader('X-Error-Id', errorId);
    if (exception instanceof RetryLaterException) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(exception.retryAfterSeconds))));
    this.http.writeJson(res, result.status, this.style.body(result, message, extra));
  }

  private render(exception: unknown, req: Request): Rendered {
    const style = this.style;
    if (exception instanceof ApiException) {
      return { result: exception.result, message: exception.message, extra: exception.extra };
    }
    if (exception instanceof InvalidParameterException) {
      return { result: style.invalidParameter, message: exception.message };
    }
    const status = httpStatusOf(exception);
    switch (status) {
      case 404:
        return this.http.servedWithOtherMethod(req) ? plain(style.methodNotAllowed) : plain(style.routeNotFound);
      case 405:
        return plain(style.methodNotAllowed);
      case 413:
        return plain(style.bodyTooLarge);
      case 415:
        return plain(style.unsupportedMediaType);
      case 429:
        return plain(style.rateLimited);
      case 401:
      case 403:
        return plain(style.unauthorized);
      default:
        if (status !== undefined && status >= 400 && status < 500) return plain(style.invalidParameter);
    }
    const unavailable = status === 503 || isUnavailableError(exception);
    const result = style.systemError(req, unavailable);
    const errorId = randomUUID();
    this.logger.error(
      { errorId, method: req.method, path: req.path, err: exception },
      `unexpected failure ${errorId}: ${exception instanceof Error ? exception.message : String(exception)}`,
    );
    return { ...plain(result), errorId };
  }
}

function plain(result: ResultCode): Rendered {
  return { result, message: result.message };
}

function httpStatusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  if (typeof exception === 'object' && exception !== null) {
    const e = exception as { status?: unknown; statusCode?: unknown; type?: unknown };
    // body-parser / http-errors errors carry `status` and `type` (e.g. entity.too.large).
    if (typeof e.type === 'string' && typeof e.status === 'number') return e.status;
    if (typeof e.statusCode === 'number' && typeof e.type === 'string') return e.statusCode;
  }
  return undefined;
}
