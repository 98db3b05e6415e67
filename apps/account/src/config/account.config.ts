import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { loadConfig } from '@geoaccount/api';

/** The account service's environment (CONTRACT §1), validated at start. */
export class AccountConfig {
  @Type(() => Number) @IsInt() @Min(0) @Max(65535)
  PORT = 3001;

  @IsString()
  HOST = '0.0.0.0';

  /** `postgres://user:pass@host:port/db`; unset: an embedded PostgreSQL under `.data/`. */
  @IsOptional() @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'expected postgres://user:pass@host:port/db' })
  DATABASE_URL?: string = undefined;

  @Type(() => Number) @IsInt() @Min(0) @Max(86400)
  SIGNATURE_MAX_SKEW_SECONDS = 300;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** argon2id memory cost of password hashes in KiB (OWASP: 19 MiB). */
  @Type(() => Number) @IsInt() @Min(1024) @Max(4194304)
  ARGON2_MEMORY_KIB = 19456;

  /** argon2id passes (OWASP: 2). */
  @Type(() => Number) @IsInt() @Min(1) @Max(100)
  ARGON2_TIME_COST = 2;

  /** argon2id lanes (OWASP: 1). */
  @Type(() => Number) @IsInt() @Min(1) @Max(255)
  ARGON2_PARALLELISM = 1;

  /** Failed logins of one (app, login id) within the window that lock it. */
  @Type(() => Number) @IsInt() @Min(1) @Max(1000)
  LOGIN_MAX_FAILURES = 5;

  @Type(() => Number) @IsInt() @Min(1) @Max(86400 * 30)
  LOGIN_FAILURE_WINDOW_SECONDS = 900;

  /** How long a locked (app, login id) is refused. */
  @Type(() => Number) @IsInt() @Min(1) @Max(86400 * 30)
  LOGIN_LOCK_SECONDS = 900;
}

export function loadAccountConfig(env: NodeJS.ProcessEnv = process.env): AccountConfig {
  return loadConfig(AccountConfig, env);
}
