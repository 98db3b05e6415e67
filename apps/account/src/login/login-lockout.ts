import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type AuditEventRow, auditEventCte, auditEventParams } from '../audit/audit-events.repository';
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

/** One attempt's claim on the allowed failures of its (app, login id). */
export interface LoginClaim {
  /** When the attempt was claimed (its entry among the failures), as PostgreSQL's text, to the microsecond. */
  at: string;
}

/** Why an attempt got no claim. */
export type NoClaim = 'locked' | 'busy';

const PURGE_EVERY_MS = 5 * 60_000;

/**
 * Failed logins per (app, login id) in PostgreSQL, so that a lock holds on every instance.
 *
 * An attempt claims one of the allowed failures before its password is verified, in one
 * atomic upsert (concurrent claims serialise on the row); a locked login id gets no claim,
 * and neither does one whose allowed failures are all claimed by attempts still being
 * verified (it is busy: the caller waits and claims again). A claim is a failure until the
 * verification says otherwise: a failure that brings the claims to the limit locks; a success
 * clears the failures claimed up to it (claims made after it, still being verified, keep
 * counting); an attempt that verified nothing gives its claim back. So at most `maxFailures`
 * passwords are verified per window without a success in between, however many instances
 * and concurrent attempts, and no database connection is held while a password is verified.
 * Failures before the end of the last lock no longer count, so a lock is followed by a fresh
 * window.
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

  /**
   * The statement that claims a failure for (`$1`, `$2`), as the CTE `claim` returning `at`,
   * or no row; parameters `$3`, `$4` are {@link claimParams}. Meant to be combined with a
   * read in one round trip; {@link lockedSql} tells a locked login id from a busy one.
   */
  claimCte(): string {
    // The failures that still count at the time `c.at` of the claim: inside the window and
    // after the end of the last lock.
    const counted = `ARRAY(
        SELECT t FROM unnest(f."failed_at") AS t
         WHERE t > GREATEST(c."at" - make_interval(secs => $4::float8), COALESCE(f."locked_until", '-infinity'))
         ORDER BY t)`;
    return `"claim_at" AS (SELECT clock_timestamp() AS "at"),
      "claim" AS (
        INSERT INTO "login_failures" AS f ("app_token", "user_login_id", "failed_at", "last_failed_at")
        SELECT $1, $2, ARRAY[c."at"], c."at" FROM "claim_at" c
        ON CONFLICT ("app_token", "user_login_id") DO UPDATE SET
          "failed_at" = (SELECT ${counted} || c."at" FROM "claim_at" c),
          "last_failed_at" = EXCLUDED."last_failed_at"
        WHERE (f."locked_until" IS NULL OR f."locked_until" <= EXCLUDED."last_failed_at")
          AND (SELECT cardinality(${counted}) FROM "claim_at" c) < $3::int
        RETURNING f."last_failed_at"::text AS "at")`;
  }

  /** Whether the login id (`$1`, `$2`) is locked, as read at the start of the statement. */
  lockedSql(alias: string): string {
    return `EXISTS (SELECT 1 FROM "login_failures" ${alias}
      WHERE ${alias}."app_token" = $1 AND ${alias}."user_login_id" = $2 AND ${alias}."locked_until" > now())`;
  }

  /** Parameters `$3`, `$4` of {@link claimCte}. */
  claimParams(): [number, number] {
    return [this.policy.maxFailures, this.policy.windowSeconds];
  }

  /** Claims one failure. */
  async claim(appToken: string, userLoginId: string): Promise<LoginClaim | NoClaim> {
    const [row] = (await this.dataSource.query(
      `WITH ${this.claimCte()} SELECT "claim"."at", ${this.lockedSql('l')} AS "locked" FROM (VALUES (1)) AS "one" ("x") LEFT JOIN "claim" ON true`,
      [appToken, userLoginId, ...this.claimParams()],
    )) as { at: string | null; locked: boolean }[];
    return row!.at !== null ? { at: row!.at } : row!.locked ? 'locked' : 'busy';
  }

  /**
   * A failed attempt: its claim stays a failure; returns whether it locked the login id.
   * `event` (the attempt's audit event) is written in the same statement.
   */
  async fail(appToken: string, userLoginId: string, event: AuditEventRow): Promise<boolean> {
    const { maxFailures, windowSeconds, lockSeconds } = this.policy;
    const [row] = (await this.dataSource.query(
      `WITH "locked" AS (
         UPDATE "login_failures" f SET "locked_until" = now() + make_interval(secs => $5::float8)
          WHERE f."app_token" = $1 AND f."user_login_id" = $2
            AND (f."locked_until" IS NULL OR f."locked_until" <= now())
            AND cardinality(ARRAY(
                  SELECT t FROM unnest(f."failed_at") AS t
                   WHERE t > GREATEST(now() - make_interval(secs => $4::float8), COALESCE(f."locked_until", '-infinity')))) >= $3::int
         RETURNING 1),
       ${auditEventCte(6)}
       SELECT count(*)::int AS "n" FROM "locked"`,
      [appToken, userLoginId, maxFailures, windowSeconds, lockSeconds, ...auditEventParams(event)],
    )) as { n: number }[];
    return row!.n > 0;
  }

  /**
   * A successful login: forgets the failures claimed up to and including `claim`; the row
   * goes when nothing later is left. `event` (the login's audit event), when given, is written
   * in the same statement.
   */
  async succeed(appToken: string, userLoginId: string, claim: LoginClaim, event?: AuditEventRow): Promise<void> {
    await this.forget(appToken, userLoginId, claim.at, 't <= $3::timestamptz', event);
  }

  /** An attempt that verified nothing (a directory outage, an error): gives its claim back. */
  async release(appToken: string, userLoginId: string, claim: LoginClaim): Promise<void> {
    await this.forget(appToken, userLoginId, claim.at, 't = $3::timestamptz');
  }

  /**
   * Removes the failures matching `which` (of `t`, the failure, and `$3`, the claim); a lock
   * stays only while the failures left still reach the limit. An empty row is deleted.
   */
  private async forget(appToken: string, userLoginId: string, at: string, which: string, event?: AuditEventRow): Promise<void> {
    const left = `ARRAY(SELECT t FROM unnest(f."failed_at") AS t WHERE NOT (${which}) ORDER BY t)`;
    await this.dataSource.query(
      `WITH ${event === undefined ? '' : `${auditEventCte(5)},`} "gone" AS (
         DELETE FROM "login_failures" f
          WHERE f."app_token" = $1 AND f."user_login_id" = $2 AND cardinality(${left}) = 0
         RETURNING 1)
       UPDATE "login_failures" f SET
         "failed_at" = ${left},
         "locked_until" = CASE WHEN cardinality(${left}) >= $4::int THEN f."locked_until" END
        WHERE f."app_token" = $1 AND f."user_login_id" = $2 AND NOT EXISTS (SELECT 1 FROM "gone")`,
      [appToken, userLoginId, at, this.policy.maxFailures, ...(event === undefined ? [] : auditEventParams(event))],
    );
  }

  /**
   * Clears the failures and the lock of a login id (an operator's unlock); with `onlyIfLocked`,
   * only when it is locked now. Returns whether anything was cleared.
   */
  async clear(em: EntityManager, appToken: string, userLoginId: string, onlyIfLocked: boolean): Promise<boolean> {
    const [, n] = (await em.query(
      `DELETE FROM "login_failures" WHERE "app_token" = $1 AND "user_login_id" = $2 ${onlyIfLocked ? 'AND "locked_until" > now()' : ''}`,
      [appToken, userLoginId],
    )) as [unknown, number];
    return n > 0;
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
