import { Client } from 'pg';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { loadAccountConfig } from '../src/config/account.config';
import { migrationDataSourceOptions } from '../src/database/database.options';
import { MIGRATIONS } from '../src/database/migrations';
import { MIGRATION_LOCK_TIMEOUT_MS, withLockTimeout } from '../src/database/migrations/lock-timeout';
import { runMigrations } from '../src/database/run-migrations';
import { createTestDatabase, dropTestDatabase } from './support/database';

/** A migration that needs the table `probe` exclusively (as an ALTER TABLE would). */
class LockProbe1700000000000 implements MigrationInterface {
  name = 'LockProbe1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE "probe" IN ACCESS EXCLUSIVE MODE`);
    await q.query(`SELECT current_setting('lock_timeout')`);
  }
  async down(): Promise<void> {}
}

/** The same outside a transaction (as `CREATE INDEX CONCURRENTLY` must run). */
class LockProbeNoTransaction1700000000001 implements MigrationInterface {
  name = 'LockProbeNoTransaction1700000000001';
  transaction = false;
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX CONCURRENTLY "probe_id" ON "probe" ("id")`);
  }
  async down(): Promise<void> {}
}

describe('migrations: a lock_timeout on every migration', () => {
  let database: { name: string; url: string };
  let holder: Client;

  beforeAll(async () => {
    database = await createTestDatabase(undefined, 'account_migr_lock');
    holder = new Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('CREATE TABLE "probe" ("id" int)');
  });
  afterAll(async () => {
    await holder?.end();
    await dropTestDatabase(database.name);
  });

  async function migrate(migration: new () => MigrationInterface) {
    const config = loadAccountConfig({ DATABASE_URL: database.url });
    const ds = new DataSource({
      ...migrationDataSourceOptions({ ...config, url: database.url }),
      migrations: [withLockTimeout(migration, 500)],
    });
    await ds.initialize();
    const started = Date.now();
    try {
      const err = await runMigrations(ds).then(
        () => undefined,
        (e: unknown) => e as { code?: string },
      );
      return { err, ms: Date.now() - started };
    } finally {
      await ds.destroy();
    }
  }

  it('every migration of the schema is wrapped (10 s)', () => {
    expect(MIGRATION_LOCK_TIMEOUT_MS).toBe(10_000);
    for (const m of MIGRATIONS) expect(Object.getPrototypeOf(m).name).toBe(m.name);
  });

  it('a migration waiting for a lock held by a long transaction fails (55P03) instead of queueing, and applies once the lock is free', async () => {
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE "probe" IN ACCESS SHARE MODE');
    const blocked = await migrate(LockProbe1700000000000);
    process.stdout.write(`migrations: waited ${blocked.ms} ms for the lock (lock_timeout 500 ms)\n`);
    expect(blocked.err?.code).toBe('55P03');
    expect(blocked.ms).toBeLessThan(20_000);
    await holder.query('COMMIT');
    expect((await migrate(LockProbe1700000000000)).err).toBeUndefined();
  });

  it('outside a transaction too (CREATE INDEX CONCURRENTLY, which completes while the migration lock is held)', async () => {
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE "probe" IN SHARE MODE'); // conflicts with CONCURRENTLY's SHARE UPDATE EXCLUSIVE
    const blocked = await migrate(LockProbeNoTransaction1700000000001);
    expect(blocked.err?.code).toBe('55P03');
    await holder.query('COMMIT');
    await holder.query('DROP INDEX IF EXISTS "probe_id"'); // the failed build leaves an invalid index
    expect((await migrate(LockProbeNoTransaction1700000000001)).err).toBeUndefined();
    const { rows } = await holder.query<{ valid: boolean }>(
      `SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = '"probe_id"'::regclass`,
    );
    expect(rows).toEqual([{ valid: true }]);
  });
});
