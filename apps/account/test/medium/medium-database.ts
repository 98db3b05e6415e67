import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, type Logger, type QueryRunner } from 'typeorm';
import { dataSourceOptions } from '../../src/database/database.options';
import { ENTITIES } from '../../src/entities';
import { databaseUrl, dropTestDatabase, serverUrl } from '../support/database';

/** The environment variable naming the migrated template database (set by the global setup). */
export const TEMPLATE_ENV = 'ACCOUNT_MEDIUM_TEMPLATE';

/** Keeps the statements a DataSource sends while `recording` is set (TypeORM's logger hook). */
export class StatementLog implements Logger {
  recording: { sql: string; params: unknown[] }[] | undefined;

  logQuery(query: string, parameters?: unknown[]): void {
    this.recording?.push({ sql: query, params: parameters ?? [] });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

export interface MediumDatabase {
  readonly dataSource: DataSource;
  readonly statements: StatementLog;
  /** A query runner in its own transaction, for work that is rolled back. */
  transaction(): Promise<QueryRunner>;
  close(): Promise<void>;
}

/**
 * A database of its own for one spec file, cloned from the migrated template, and a DataSource
 * on it with every entity of the schema.
 */
export async function mediumDatabase(): Promise<MediumDatabase> {
  const template = process.env[TEMPLATE_ENV];
  if (!template) throw new Error(`${TEMPLATE_ENV} is unset: run the medium tier through its jest config (test/medium/jest.config.js)`);
  const name = `account_medium_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)} TEMPLATE ${admin.escapeIdentifier(template)}`);
  } finally {
    await admin.end();
  }
  const statements = new StatementLog();
  const dataSource = new DataSource({
    ...dataSourceOptions({
      url: databaseUrl(serverUrl(), name),
      DATABASE_POOL_SIZE: 4,
      DATABASE_CONNECT_TIMEOUT_MS: 10_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 0,
    }),
    entities: ENTITIES,
    logger: statements,
  });
  await dataSource.initialize();
  return {
    dataSource,
    statements,
    async transaction() {
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      return runner;
    },
    async close() {
      await dataSource.destroy();
      await dropTestDatabase(name);
    },
  };
}
