import { Type } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The operations settings both services read from the environment; the services' config
 * classes extend it (`class AccountConfig extends OperationsConfig`).
 */
export class OperationsConfig {
  /** pino level. */
  @IsIn(LOG_LEVELS)
  LOG_LEVEL = 'info';

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
}
