import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsTimeZone, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';
import { ConfigError, loadConfig } from '@geoaccount/api';
import { parseTrustedProxies } from '@geoaccount/http';
import { nonceSettingsProblem } from '@geoaccount/signing';
import { OperationsConfig } from '@geoaccount/observability';

/**
 * The account service's environment (docs/contract.md §1), validated at start; the operations
 * settings (rate limit, shutdown) come from `OperationsConfig`.
 */
export class AccountConfig extends OperationsConfig {
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3001;

  @IsString()
  HOST = '0.0.0.0';

  /** `postgres://user:pass@host:port/db`; unset: an embedded PostgreSQL under `.data/`. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'expected postgres://user:pass@host:port/db' })
  DATABASE_URL?: string = undefined;

  /**
   * A direct session (not through a transaction pooler) for migrations: they hold a lock for
   * their whole run and build indexes `CONCURRENTLY`. Unset: `DATABASE_URL`.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'expected postgres://user:pass@host:port/db' })
  DATABASE_MIGRATION_URL?: string = undefined;

  /** Apply pending migrations at start (a Kubernetes Job can run `migrate` instead). */
  @Transform(({ value }: { value: unknown }) => parseBoolean(value))
  @IsBoolean({ message: 'expected true or false' })
  DATABASE_AUTO_MIGRATE = true;

  /** Largest number of pooled connections per instance. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  DATABASE_POOL_SIZE = 10;

  /** How long to wait for a new connection before the request fails with 503. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600000)
  DATABASE_CONNECT_TIMEOUT_MS = 5000;

  /** Longest a single statement may run (0: no limit). */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3600000)
  DATABASE_STATEMENT_TIMEOUT_MS = 15000;

  /** Port of the embedded PostgreSQL started when `DATABASE_URL` is unset. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  EMBEDDED_PG_PORT = 5433;

  /** Data directory of the embedded PostgreSQL; unset: `<repo>/.data/postgres`. */
  @IsOptional()
  @IsString()
  EMBEDDED_PG_DATA_DIR?: string = undefined;

  /** Largest accepted request body, e.g. `64kb`. */
  @Matches(/^\d+\s*(b|kb|mb)?$/i, { message: 'expected a size such as 64kb' })
  BODY_LIMIT = '64kb';

  /** The built web console served at `/console/`; unset: `apps/console/dist` of this checkout or image. */
  @IsOptional()
  @IsString()
  CONSOLE_DIR?: string = undefined;

  /** The location service's URL as the console's browser reaches it (docs/contract.md §12). */
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'expected an http(s) URL' })
  CONSOLE_LOCATION_URL = 'http://127.0.0.1:3002';

  /**
   * Origins whose pages may call the signed API (`/account/v1.0.1/`) from a browser,
   * comma-separated; never `*`, never with credentials. The admin API and the console answer no
   * CORS. Unset: none (the console is served by this service, same origin).
   */
  @IsOptional()
  @Matches(/^\s*https?:\/\/[^\s,*/]+\s*(,\s*https?:\/\/[^\s,*/]+\s*)*$/, { message: 'expected comma-separated origins such as https://app.example.com (never *)' })
  CORS_ORIGINS?: string = undefined;

  /**
   * Proxies (comma-separated CIDRs or addresses) whose `X-Forwarded-For` is believed for the
   * audit trail's `client_ip`: the hops are walked from the nearest while they are trusted.
   * Unset: none (`client_ip` is the peer's address).
   */
  @IsOptional()
  @IsString()
  TRUSTED_PROXIES?: string = undefined;

  /** Time zone of `create_time` / `update_time` in answers (IANA name). */
  @IsTimeZone({ message: 'expected an IANA time zone such as UTC or Asia/Shanghai' })
  TZ = 'UTC';

  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(86400)
  SIGNATURE_MAX_SKEW_SECONDS = 300;

  /** Every signed request must carry a `nonce` (docs/contract.md §2): each request is usable once. */
  @Transform(({ value }: { value: unknown }) => parseBoolean(value))
  @IsBoolean({ message: 'expected true or false' })
  SIGNATURE_REQUIRE_NONCE = false;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  override LOG_LEVEL = 'info';

  /** argon2id memory cost of password hashes in KiB (OWASP: 19 MiB). */
  @Type(() => Number)
  @IsInt()
  @Min(1024)
  @Max(4194304)
  ARGON2_MEMORY_KIB = 19456;

  /** argon2id passes (OWASP: 2). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  ARGON2_TIME_COST = 2;

  /** argon2id lanes (OWASP: 1). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(255)
  ARGON2_PARALLELISM = 1;

  /**
   * Login attempts per minute and calling app, per instance (docs/contract.md §1); past it 429
   * 90429 with `Retry-After`; 0 turns it off. The default is a fifth of the measured login
   * capacity of a 2-core instance (docs/performance.md, "Login capacity"), so that one app (whose
   * secret ships in a mobile app) cannot take an instance's cores from the others.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  LOGIN_RATE_LIMIT_PER_MINUTE = 600;

  /**
   * Password hashes and verifications run at once per instance (0: the instance's cores); at
   * most four times as many wait, and past that a request needing one is answered 429 90429
   * with `Retry-After` at once.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1024)
  PASSWORD_HASH_CONCURRENCY = 0;

  /**
   * How many password hashes may wait for a free slot (0: four times `PASSWORD_HASH_CONCURRENCY`);
   * past that a request needing one is answered 429 90429 with `Retry-After` at once. Raise it
   * where bursts of registrations or logins are expected and a longer wait is acceptable.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100_000)
  PASSWORD_HASH_QUEUE = 0;

  /** Failed logins of one (app, login id) within the window that lock it. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  LOGIN_MAX_FAILURES = 5;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(86400 * 30)
  LOGIN_FAILURE_WINDOW_SECONDS = 900;

  /** How long a locked (app, login id) is refused. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(86400 * 30)
  LOGIN_LOCK_SECONDS = 900;

  /**
   * Most levels of one auth hierarchy (a root auth is level 1): creating or re-parenting an
   * auth that would make a chain deeper is refused, and permissions are inherited through at
   * most `AUTH_MAX_DEPTH - 1` ancestors.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  AUTH_MAX_DEPTH = 64;

  /** Days audit events are kept; whole monthly partitions past it are dropped (docs/contract.md §10). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(36500)
  AUDIT_RETENTION_DAYS = 400;

  /** Key ring of personal data at rest (docs/contract.md §11): JSON `[{"id","key"}]`, the first encrypting. */
  @IsOptional()
  @IsString()
  PII_KEYS?: string = undefined;

  /** A file holding the `PII_KEYS` JSON (e.g. a mounted Kubernetes Secret). */
  @IsOptional()
  @IsString()
  PII_KEYS_FILE?: string = undefined;

  /**
   * Bearer token of the operator `admin` (role admin) of the admin API (docs/contract.md §14),
   * at least 32 characters; unset: no bootstrap token.
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'expected at least 32 characters' })
  ADMIN_TOKEN?: string = undefined;

  /** Bearer token of the internal API (`/internal/v1`, location's view of the apps), at least 32 characters; unset: refused. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'expected at least 32 characters' })
  INTERNAL_TOKEN?: string = undefined;

  /** How often the recorded credential uses are written (docs/contract.md §14 `last_used_time`). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(86400)
  CREDENTIAL_USE_FLUSH_SECONDS = 60;

  /** How often an instance asks whether apps or credentials changed (docs/contract.md §14: seen within 5 s). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(5000)
  CONTROL_PLANE_POLL_MS = 1000;

  /** `production` refuses to start without `PII_KEYS`. */
  @IsOptional()
  @IsString()
  NODE_ENV?: string = undefined;
}

export function loadAccountConfig(env: NodeJS.ProcessEnv = process.env): AccountConfig {
  const config = loadConfig(AccountConfig, env);
  // docs/contract.md §2: a nonce must be remembered for as long as its request may be accepted.
  const nonceProblem = nonceSettingsProblem(config.SIGNATURE_REQUIRE_NONCE, config.SIGNATURE_MAX_SKEW_SECONDS);
  if (nonceProblem) throw new ConfigError(`Invalid environment: ${nonceProblem}`);
  parseTrustedProxies(config.TRUSTED_PROXIES); // refuses to start on an entry that is no address, naming it
  return config;
}

/** The origins of `CORS_ORIGINS`. */
export function accountCorsOrigins(config: Pick<AccountConfig, 'CORS_ORIGINS'>): string[] {
  return (config.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
}

function parseBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === 'yes') return true;
  if (v === 'false' || v === '0' || v === 'no') return false;
  return value;
}
