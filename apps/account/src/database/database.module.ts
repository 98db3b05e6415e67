import { type DynamicModule, Global, Inject, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NONCE_STORE } from '@geoaccount/signing';
import { AccountConfig } from '../config/account.config';
import { dataSourceOptions } from './database.options';
import { PgNonceStore } from './pg-nonce-store';
import { runMigrations } from './run-migrations';

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
        TypeOrmModule.forRoot({
          ...dataSourceOptions({ ...config, url }),
          autoLoadEntities: true,
          // Fail fast at start (the orchestrator restarts); requests later reconnect on demand.
          retryAttempts: 1,
          retryDelay: 0,
        }),
      ],
      providers: [PgNonceStore, { provide: NONCE_STORE, useExisting: PgNonceStore }],
      exports: [NONCE_STORE],
    };
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.DATABASE_AUTO_MIGRATE) return;
    const applied = await runMigrations(this.dataSource);
    if (applied.length > 0) this.logger.log(`applied migrations: ${applied.join(', ')}`);
  }
}
