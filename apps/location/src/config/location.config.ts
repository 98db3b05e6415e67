import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { loadConfig } from '@geoaccount/api';
import { OperationsConfig } from '@geoaccount/observability';

const HTTP_URL = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };

/**
 * The location service's environment (docs/contract.md §1), validated at start; the operations
 * settings (rate limit, shutdown) come from `OperationsConfig`.
 */
/** The origins allowed to call from a browser (`CORS_ORIGINS`, or its default). */
export function corsOrigins(config: Pick<LocationConfig, 'CORS_ORIGINS'>, env: NodeJS.ProcessEnv = process.env): string[] {
  if (config.CORS_ORIGINS !== undefined) return config.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean);
  return env.NODE_ENV === 'production' ? [] : ['http://127.0.0.1:3001', 'http://localhost:3001'];
}

export class LocationConfig extends OperationsConfig {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3002;

  @IsString()
  HOST = '0.0.0.0';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  override LOG_LEVEL = 'info';

  /**
   * Origins whose pages may call the service from a browser (the web console), comma-separated;
   * never `*`. Unset: the local console (`http://127.0.0.1:3001`, `http://localhost:3001`),
   * except with `NODE_ENV=production`, where no origin is allowed unless listed.
   */
  @IsOptional()
  @Matches(/^\s*https?:\/\/[^\s,*/]+\s*(,\s*https?:\/\/[^\s,*/]+\s*)*$/, { message: 'expected comma-separated origins such as https://console.example.com (never *)' })
  CORS_ORIGINS?: string = undefined;

  /**
   * Requests per minute and calling app, per instance (0: off). On by default: every answer
   * may add a cache entry for `CACHE_TTL_SECONDS`, so an app's budget bounds what it can
   * write (20 a second sustained, bursts of 1200).
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  override RATE_LIMIT_PER_MINUTE = 1200;

  // --- control plane (docs/contract.md §14) ---------------------------------------------

  /**
   * The account service's base URL: the apps and their credentials are read from
   * `{APPS_URL}/internal/v1/apps`, and credential uses reported to it. Unset: the apps of
   * `APP_CREDENTIALS` only.
   */
  @IsOptional()
  @IsUrl(HTTP_URL)
  APPS_URL?: string = undefined;

  /** Bearer token of the account service's internal API (the same Secret in both services). */
  @ValidateIf((c: LocationConfig) => c.APPS_URL !== undefined || c.INTERNAL_TOKEN !== undefined)
  @IsString()
  @MinLength(32, { message: 'expected at least 32 characters' })
  @IsNotEmpty({ message: 'required when APPS_URL is set' })
  INTERNAL_TOKEN?: string = undefined;

  /**
   * Seconds between two reads of the apps (each waits a random 0-20 % less, so that instances
   * spread out). With the read's timeout, a change reaches location within 15 s.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10)
  APPS_POLL_SECONDS = 5;

  /** Time allowed for one read of the apps or one report of credential uses. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(4000)
  APPS_TIMEOUT_MS = 3000;

  /** How often the credential uses seen by this instance are reported (§14 `last_used_time`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3600)
  CREDENTIAL_USE_FLUSH_SECONDS = 60;

  // --- cache ---------------------------------------------------------------------------

  /** `redis://host:port/db`; unset: an in-process cache. */
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'expected redis://host:port/db' })
  REDIS_URL?: string = undefined;

  /**
   * Redis Cluster seed nodes, `host:port,host:port,...`; when set, the cache uses the cluster
   * (and `REDIS_URL` is not used).
   */
  @IsOptional()
  @Matches(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, { message: 'expected host:port,host:port,...' })
  REDIS_CLUSTER_NODES?: string = undefined;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  CACHE_TTL_SECONDS = 604800;

  /**
   * `shared`: one cache for all apps (an app may be answered from another app's lookup, lbsStat
   * 2); `app`: each app's entries are its own, so no app learns what another looked up
   * (docs/contract.md §1).
   */
  @IsIn(['shared', 'app'])
  CACHE_SCOPE: 'shared' | 'app' = 'shared';

  /** Prepended to every cache key (lets several deployments or test runs share one Redis). */
  @IsString()
  @MaxLength(64)
  @Matches(/^[\w.:-]*$/, { message: 'expected letters, digits, "_", ".", ":" or "-"' })
  CACHE_KEY_PREFIX = 'lbs:';

  /** Capacity of the in-process cache (entries), used when `REDIS_URL` is unset. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  CACHE_MAX_ENTRIES = 100000;

  /**
   * PEM bundle that verifies a `rediss://` server's certificate (a private CA); unset: the
   * system CAs. TLS is on with a `rediss://` URL, and the certificate is always verified.
   */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  REDIS_CA_FILE?: string = undefined;

  /** A Redis command slower than this counts as a cache miss, so a dead Redis never slows answers. */
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(10000)
  REDIS_COMMAND_TIMEOUT_MS = 250;

  // --- geocoder ------------------------------------------------------------------------

  @IsIn(['offline', 'amap', 'nominatim'])
  GEOCODER = 'offline';

  @IsIn(['wgs84', 'gcj02'])
  COORD_SYSTEM: 'wgs84' | 'gcj02' = 'wgs84';

  @ValidateIf((c: LocationConfig) => c.GEOCODER === 'amap' || c.AMAP_KEY !== undefined)
  @IsString()
  @IsNotEmpty({ message: 'required when GEOCODER=amap' })
  AMAP_KEY?: string = undefined;

  /** AMap private key: when set, requests carry the digital signature `sig`. */
  @IsOptional()
  @IsString()
  AMAP_SECRET?: string = undefined;

  @IsUrl(HTTP_URL)
  AMAP_BASE_URL = 'https://restapi.amap.com';

  @IsUrl(HTTP_URL)
  NOMINATIM_BASE_URL = 'https://nominatim.openstreetmap.org';

  /** Nominatim's usage policy asks for a User-Agent that identifies the application (add a contact). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  NOMINATIM_USER_AGENT = 'geoaccount-location/0.1.0';

  /** Nominatim `accept-language`. */
  @IsString()
  @IsNotEmpty()
  NOMINATIM_LANGUAGE = 'zh-CN,zh,en';

  /** Minimum interval between two Nominatim requests of this process (the public server allows 1/s). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60000)
  NOMINATIM_MIN_INTERVAL_MS = 1000;

  // --- upstream calls ------------------------------------------------------------------

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(120000)
  UPSTREAM_TIMEOUT_MS = 3000;

  /** Retries of an idempotent failure (5xx, reset, timeout) within `UPSTREAM_TIMEOUT_MS`. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10)
  UPSTREAM_RETRIES = 2;

  /** Consecutive failures that open an upstream's circuit breaker. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  UPSTREAM_BREAKER_FAILURES = 5;

  /** How long an open circuit refuses calls before one trial call. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600000)
  UPSTREAM_BREAKER_COOLDOWN_MS = 10000;

  // --- base stations -------------------------------------------------------------------

  /** `offline`: an OpenCelliD CSV export; `opencellid`: the OpenCelliD API. */
  @IsIn(['offline', 'opencellid'])
  CELL_SOURCE = 'offline';

  /** OpenCelliD-format CSV (plain or `.gz`); unset: the sample file shipped with the service. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  CELL_TOWERS_FILE?: string = undefined;

  /** Comma-separated mobile country codes to load from `CELL_TOWERS_FILE` (e.g. `460`); unset: all. */
  @IsOptional()
  @Matches(/^\d{1,3}(,\d{1,3})*$/, { message: 'expected mobile country codes separated by commas, e.g. 460,454' })
  CELL_TOWERS_MCC?: string = undefined;

  @ValidateIf((c: LocationConfig) => c.CELL_SOURCE === 'opencellid' || c.OPENCELLID_KEY !== undefined)
  @IsString()
  @IsNotEmpty({ message: 'required when CELL_SOURCE=opencellid' })
  OPENCELLID_KEY?: string = undefined;

  @IsUrl(HTTP_URL)
  OPENCELLID_BASE_URL = 'https://opencellid.org';
}

export function loadLocationConfig(env: NodeJS.ProcessEnv = process.env): LocationConfig {
  return loadConfig(LocationConfig, env);
}
