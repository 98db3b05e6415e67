import type { DataSourceOptions } from 'typeorm';

/** The PostgreSQL member of TypeORM's options. */
type PostgresConnectionOptions = Extract<DataSourceOptions, { type: 'postgres' }>;
import type { AccountConfig } from '../config/account.config';
import { MIGRATIONS } from './migrations';

/** The settings of the account service's PostgreSQL connection, shared by the app, the CLI and `migrate`. */
export type DatabaseSettings = Pick<
  AccountConfig,
  'DATABASE_POOL_SIZE' | 'DATABASE_CONNECT_TIMEOUT_MS' | 'DATABASE_STATEMENT_TIMEOUT_MS'
> & { url: string };

export const MIGRATIONS_TABLE = 'schema_migrations';

/**
 * TypeORM options: never `synchronize`; migrations are explicit classes (no globs, so the
 * same list works from TypeScript under jest and from the compiled `dist`).
 */
export function dataSourceOptions(settings: DatabaseSettings): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url: settings.url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: MIGRATIONS_TABLE,
    migrationsTransactionMode: 'each',
    poolSize: settings.DATABASE_POOL_SIZE,
    connectTimeoutMS: settings.DATABASE_CONNECT_TIMEOUT_MS,
    applicationName: 'geoaccount-account',
    // No startup parameter beyond the user, database and application name, and no session
    // state: the URL may be a transaction pooler's (docs/operations.md). The statement timeout
    // is the role's setting in the database (`ensureStatementTimeout`).
    extra: {
      // Keep idle connections from piling up on the server; reconnect on demand.
      idleTimeoutMillis: 30_000,
    },
  };
}

/**
 * The options of a migration run: the direct session of `DATABASE_MIGRATION_URL` (else
 * `DATABASE_URL`), two connections (one holds the migration lock, one migrates).
 */
export function migrationDataSourceOptions(settings: DatabaseSettings & { migrationUrl?: string }): PostgresConnectionOptions {
  return {
    ...dataSourceOptions({ ...settings, url: settings.migrationUrl ?? settings.url }),
    poolSize: 2,
    applicationName: 'geoaccount-account-migrate',
  };
}
