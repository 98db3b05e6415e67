import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How long a migration statement waits for a lock before it fails (SQLSTATE 55P03) instead of
 * queueing: a migration waiting behind a long transaction would hold every later request on the
 * same table behind itself. The failed run is retried (the init container restarts, the Job
 * retries); nothing is half applied (each migration is its own transaction).
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 10_000;

type MigrationClass = new () => MigrationInterface;

/**
 * The migration with `lock_timeout` set first: `SET LOCAL` in its transaction; a migration that
 * runs outside a transaction (`transaction = false`, e.g. `CREATE INDEX CONCURRENTLY`, which no
 * transaction may hold) sets it for its session and resets it after — it runs over the direct
 * session of `DATABASE_MIGRATION_URL`, never through a transaction pooler.
 */
export function withLockTimeout<T extends MigrationClass>(Migration: T, ms = MIGRATION_LOCK_TIMEOUT_MS): T {
  const Wrapped = class extends (Migration as MigrationClass) {
    override async up(q: QueryRunner): Promise<void> {
      if (q.isTransactionActive) {
        await q.query(`SET LOCAL lock_timeout = ${Math.trunc(ms)}`);
        return super.up(q);
      }
      await q.query(`SET lock_timeout = ${Math.trunc(ms)}`);
      try {
        return await super.up(q);
      } finally {
        await q.query('RESET lock_timeout');
      }
    }
  };
  Object.defineProperty(Wrapped, 'name', { value: Migration.name });
  return Wrapped as unknown as T;
}
