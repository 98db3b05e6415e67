import type { DataSource } from 'typeorm';

/** Arbitrary, fixed key of the advisory lock that serialises concurrent migration runs. */
const MIGRATION_LOCK_KEY = 4_207_311_001;

/**
 * Applies pending migrations under a session advisory lock, so that several instances (or
 * an instance and the migrate Job) starting together apply each migration once.
 * Returns the names of the migrations applied.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
