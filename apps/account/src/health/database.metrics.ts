import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Metrics } from '@geoaccount/observability';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** Publishes the pg pool's connections in use / idle and waiting queries on every scrape. */
@Injectable()
export class DatabaseMetrics implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics.dbPool(() => {
      const pool = (this.dataSource.driver as unknown as { master?: PgPool }).master;
      if (!pool || !this.dataSource.isInitialized) return undefined;
      return { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount };
    });
  }
}
