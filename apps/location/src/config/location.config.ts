import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { loadConfig } from '@geoaccount/api';

/** The location service's environment (CONTRACT §1), validated at start. */
export class LocationConfig {
  @Type(() => Number) @IsInt() @Min(0) @Max(65535)
  PORT = 3002;

  @IsString()
  HOST = '0.0.0.0';

  /** `redis://host:port/db`; unset: an in-process cache. */
  @IsOptional() @Matches(/^rediss?:\/\/\S+$/, { message: 'expected redis://host:port/db' })
  REDIS_URL?: string = undefined;

  @IsIn(['offline', 'amap', 'nominatim'])
  GEOCODER = 'offline';

  @IsIn(['wgs84', 'gcj02'])
  COORD_SYSTEM = 'wgs84';

  @Type(() => Number) @IsInt() @Min(1)
  CACHE_TTL_SECONDS = 604800;

  @Type(() => Number) @IsInt() @Min(1) @Max(120000)
  UPSTREAM_TIMEOUT_MS = 3000;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';
}

export function loadLocationConfig(env: NodeJS.ProcessEnv = process.env): LocationConfig {
  return loadConfig(LocationConfig, env);
}
