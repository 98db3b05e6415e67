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
}

export function loadAccountConfig(env: NodeJS.ProcessEnv = process.env): AccountConfig {
  return loadConfig(AccountConfig, env);
}
