import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min, ValidateBy } from 'class-validator';
import type { HttpTimeouts } from '@geoaccount/http';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The operations settings both services read from the environment; the services' config
 * classes extend it (`class AccountConfig extends OperationsConfig`).
 */
export class OperationsConfig {
  /** pino level. */
  @IsIn(LOG_LEVELS)
  LOG_LEVEL = 'info';

  /**
   * Serve `/metrics` on this port only, not on `PORT` (docs/contract.md §1), so that an ingress
   * never exposes it; 0 picks a free port. Unset: `/metrics` is served on `PORT`.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number = undefined;

  /** Requests per minute and calling app, per instance; 0 turns the limit off. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_PER_MINUTE = 0;

  /** Upper bound of a graceful shutdown; past it the process exits with 1. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /** After SIGTERM, time during which the service still answers while reporting not ready. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_DRAIN_MS = 0;

  /** Longest a client may take to send a request's headers; then 408 and the connection is closed. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** Longest a client may take to send a whole request (headers and body); at least `HTTP_HEADERS_TIMEOUT_MS`. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  @ValidateBy(
    {
      name: 'notBelowHeadersTimeout',
      validator: { validate: (value: unknown, args) => Number(value) >= (args?.object as OperationsConfig).HTTP_HEADERS_TIMEOUT_MS },
      constraints: [],
    },
    { message: 'must be at least HTTP_HEADERS_TIMEOUT_MS' },
  )
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /** How long an idle keep-alive connection is kept open after an answer (above a proxy's idle timeout). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000;
}

/** The HTTP server timeouts of `applyHttpDefaults` from the operations settings. */
export function httpTimeoutsOf(config: OperationsConfig): HttpTimeouts {
  return {
    headersMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestMs: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  };
}
