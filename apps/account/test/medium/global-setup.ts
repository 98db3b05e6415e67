import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/database.options';
import { runMigrations } from '../../src/database/run-migrations';
import { createTestDatabase, serverUrl } from '../support/database';
import { TEMPLATE_ENV } from './medium-database';

/** Migrates one template database for the whole run; each spec file clones it. */
export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const { name, url } = await createTestDatabase(serverUrl(), 'account_medium_tpl');
  const dataSource = new DataSource(
    dataSourceOptions({ url, DATABASE_POOL_SIZE: 2, DATABASE_CONNECT_TIMEOUT_MS: 10_000, DATABASE_STATEMENT_TIMEOUT_MS: 0 }),
  );
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
  process.env[TEMPLATE_ENV] = name;
  console.log(`\nmedium: template database ${name} migrated in ${Date.now() - started} ms`);
}
