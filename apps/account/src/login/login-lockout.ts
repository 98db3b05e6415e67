import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountConfig } from '../config/account.config';

/** The lockout rule: `maxFailures` failed logins within `windowSeconds` lock for `lockSeconds`. */
export interface LockoutPolicy {
  maxFailures: number;
  windowSeconds: number;
  lockSeconds: number;
}

export function lockoutPolicyOf(config: AccountConfig): LockoutPolicy {
  return {
    maxFailures: config.LOGIN_MAX_FAILURES,
    windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    lockSeconds: config.LOGIN_LOCK_SECONDS,
  };
}

export interface FailureCount {
  /** Failures that count towards the lock (inside the window, after the last lock). */
  failures: number;
  /** This failure locked the login id. */
  locked: boolean;
}

const PURGE_EVERY_MS = 5 * 60_000;

/**
 * Failed logins per (app, login id) in PostgreSQL, so that a lock holds on every instance.
 * A failure is recorded by one atomic upsert: concurrent failures serialise on the row and
 * each is counted exactly once. Failures before the end of the last lock no longer count,
 * so a lock is followed by a fresh window.
 */
@Injectable()
export class LoginLockout implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(LoginLockout.name);
  private readonly policy: LockoutPolicy;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(AccountConfig) config: AccountConfig,
  ) {
    this.policy = lockoutPolicyOf(config);
  }

  /** Counts one failure; locks when it is the `maxFailures`-th inside the window. */
  async recordFailure(appToken: string, userLoginId: string): Promise<FailureCount> {
    const { maxFailures, windowSeconds, lockSeconds } = this.policy;
    // The failures that still count once this one is added: inside the window and after the
    // end of the last lock, newest `maxFailures` kept.
    const counted = `ARRAY(
        SELECT t FROM unnest(f."failed_at" || now()) AS t
         WHERE t > GREATEST(now() - make_interval(secs => $4::float8), COALESCE(f."locked_until", '-infinity'))
         ORDER BY t DESC LIMIT $3::int)`;
    const rows = (await this.dataSource.query(
      `INSERT INTO "login_failures" AS f ("app_token", "user_login_id", "failed_at", "last_failed_at", "locked_until")
       VALUES ($1, $2, ARRAY[now()], now(), CASE WHEN $3::int <= 1 THEN now() + make_interval(secs => $5::float8) END)
       ON CONFLICT ("app_token", "user_login_id") DO UPDATE SET
         "failed_at" = ${counted},
         "last_failed_at" = now(),
         "locked_until" = CASE WHEN cardinality(${counted}) >= $3::int THEN now() + make_interval(secs => $5::float8) ELSE f."locked_until" END
       RETURNING cardinality(f."failed_at") AS "failures", COALESCE(f."locked_until" = now() + make_interval(secs => $5::float8), false) AS "locked"`,
      [appToken, userLoginId, maxFailures, windowSeconds, lockSeconds],
    )) as FailureCount[];
    return rows[0]!;
  }

  /** Forgets the failures of a login id (after a successful login). */
  async reset(appToken: string, userLoginId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM "login_failures" WHERE "app_token" = $1 AND "user_login_id" = $2`, [appToken, userLoginId]);
  }

  /** Deletes rows that no longer count nor lock; returns how many. */
  async purge(): Promise<number> {
    const [, count] = (await this.dataSource.query(
      `DELETE FROM "login_failures"
        WHERE "last_failed_at" < now() - make_interval(secs => $1::float8)
          AND ("locked_until" IS NULL OR "locked_until" < now())`,
      [this.policy.windowSeconds],
    )) as [unknown, number];
    return count;
  }

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.purge().catch((err: unknown) => this.logger.warn(`login failure purge failed: ${(err as Error).message}`));
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
