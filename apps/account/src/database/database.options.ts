import type { DataSourceOptions } from 'typeorm';
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
export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
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
    extra: {
      statement_timeout: settings.DATABASE_STATEMENT_TIMEOUT_MS || undefined,
      // Keep idle connections from piling up on the server; reconnect on demand.
      idleTimeoutMillis: 30_000,
    },
  };
}
