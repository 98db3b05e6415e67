import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadAccountConfig } from '../config/account.config';
import { migrationDataSourceOptions } from './database.options';
import { runMigrations } from './run-migrations';

/**
 * Applies pending migrations and exits: `node apps/account/dist/database/migrate.js`
 * (`pnpm --filter @geoaccount/account migrate`), e.g. as a Kubernetes Job before a rollout
 * with `DATABASE_AUTO_MIGRATE=false`, over `DATABASE_MIGRATION_URL` (a direct session; else
 * `DATABASE_URL`). Exit code 0 when the schema is up to date.
 */
async function migrate(): Promise<void> {
  const config = loadAccountConfig();
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required (the embedded database migrates itself at start)');
  const dataSource = new DataSource(
    migrationDataSourceOptions({ ...config, url: config.DATABASE_URL, migrationUrl: config.DATABASE_MIGRATION_URL }),
  );
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource);
    process.stdout.write(applied.length > 0 ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n');
  } finally {
    await dataSource.destroy();
  }
}

migrate().catch((err: unknown) => {
  process.stderr.write(`migrate: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
