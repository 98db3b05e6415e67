import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The failed-login counters of the lockout become an UNLOGGED table: every login attempt now
 * writes its claim before the password is checked and clears it after a success, and these
 * short-lived counters need no WAL (nor its fsync on every commit). PostgreSQL empties an
 * unlogged table after a crash, and a standby does not have it: a crash or a failover forgets
 * the current failures and locks, as a restart of an in-memory limiter would.
 */
export class LoginFailuresUnlogged1767225800000 implements MigrationInterface {
  name = 'LoginFailuresUnlogged1767225800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "login_failures" SET UNLOGGED`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "login_failures" SET LOGGED`);
  }
}
