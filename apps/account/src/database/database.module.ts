import { type DynamicModule, Global, Inject, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NONCE_STORE } from '@geoaccount/signing';
import { AccountConfig } from '../config/account.config';
import { dataSourceOptions, migrationDataSourceOptions } from './database.options';
import { JobLeader } from './job-leader';
import { PgNonceStore } from './pg-nonce-store';
import { runMigrations } from './run-migrations';
import { ensureStatementTimeout, statementTimeoutSql } from './statement-timeout';

/**
 * The PostgreSQL connection (TypeORM; entities come from each feature's
 * `TypeOrmModule.forFeature`), migrations at start when `DATABASE_AUTO_MIGRATE`, and the
 * shared nonce store of the signature guard.
 */
@Global()
@Module({})
export class DatabaseModule implements OnModuleInit {
  private readonly logger = new Logger('Database');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(AccountConfig) private readonly config: AccountConfig,
  ) {}

  static forRoot(config: AccountConfig): DynamicModule {
    if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required here (main starts the embedded server when it is unset)');
    const url = config.DATABASE_URL;
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            await applyStatementTimeout(config, url);
            return {
              ...dataSourceOptions({ ...config, url }),
              autoLoadEntities: true,
              // Fail fast at start (the orchestrator restarts); requests later reconnect on demand.
              retryAttempts: 1,
              retryDelay: 0,
            };
          },
        }),
      ],
      providers: [JobLeader, PgNonceStore, { provide: NONCE_STORE, useExisting: PgNonceStore }],
      exports: [NONCE_STORE, JobLeader],
    };
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.DATABASE_AUTO_MIGRATE) return;
    const { DATABASE_URL: url, DATABASE_MIGRATION_URL: migrationUrl } = this.config;
    let applied: string[];
    if (migrationUrl && migrationUrl !== url && url) {
      // The service may reach the database through a transaction pooler; migrations take the
      // direct session (docs/operations.md "Connection pooler").
      const direct = new DataSource(migrationDataSourceOptions({ ...this.config, url, migrationUrl }));
      await direct.initialize();
      try {
        applied = await runMigrations(direct);
      } finally {
        await direct.destroy();
      }
    } else {
      applied = await runMigrations(this.dataSource);
    }
    if (applied.length > 0) this.logger.log(`applied migrations: ${applied.join(', ')}`);
  }
}

/** Makes the statement timeout the role's setting in the database before the pool opens (see `ensureStatementTimeout`). */
async function applyStatementTimeout(config: AccountConfig, url: string): Promise<void> {
  const logger = new Logger('Database');
  const ms = config.DATABASE_STATEMENT_TIMEOUT_MS;
  const result = await ensureStatementTimeout(url, ms, config.DATABASE_CONNECT_TIMEOUT_MS);
  if (result.applied === 'set') logger.log(`statement_timeout of the service's role in its database set to ${ms} ms`);
  if (result.applied === 'failed') {
    const database = decodeURIComponent(new URL(url).pathname.slice(1)) || 'the database';
    logger.warn(`statement_timeout not set (${result.reason}): have the database owner run ${statementTimeoutSql(database, ms)}`);
  }
}
