import type { DataSource } from 'typeorm';

/** Arbitrary, fixed key of the advisory lock that serialises concurrent migration runs. */
const MIGRATION_LOCK_KEY = 4_207_311_001;

/**
 * Applies pending migrations under an advisory lock, so that several instances (or an
 * instance and the migrate Job) starting together apply each migration once. Returns the
 * names of the migrations applied.
 *
 * The lock is a transaction lock, held by a transaction of its own left open while the
 * migrations run on another connection: it ends with that transaction (or its connection),
 * never outlives it. Through a transaction pooler, which hands a server connection to a
 * client only for a transaction, a session lock taken in one statement and released in
 * another could stay on a connection another client then gets; this one cannot. Waiting for
 * the lock is not cut by the statement timeout (`SET LOCAL`, this transaction only).
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query('SET LOCAL statement_timeout = 0');
      // A literal, not a parameter: a parameterised query leaves its portal (and its snapshot)
      // open in the transaction, and `CREATE INDEX CONCURRENTLY` would wait for that snapshot.
      await runner.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.rollbackTransaction().catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}

/** The key of the migration lock (`pg_locks.objid` of an advisory lock holds its low 32 bits). */
export const MIGRATION_LOCK = MIGRATION_LOCK_KEY;
