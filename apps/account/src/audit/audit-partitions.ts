import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountConfig } from '../config/account.config';
import { JobLeader } from '../database/job-leader';

/** Monthly partitions created ahead of time: this month and the next two. */
export const AUDIT_MONTHS_AHEAD = 2;
const DAY_MS = 86_400_000;
const PARTITION_NAME = /^audit_events_y(\d{4})m(\d{2})$/;

/**
 * Creates the coming months' partitions of `audit_events` and drops those wholly older than
 * `AUDIT_RETENTION_DAYS`, at start and then daily (docs/contract.md §10). Dropping a partition is DDL:
 * the append-only trigger (row UPDATE/DELETE) does not apply to it.
 */
export async function maintainAuditPartitions(
  dataSource: DataSource,
  retentionDays: number,
  now: Date = new Date(),
): Promise<{ created: number; dropped: string[] }> {
  const [{ created }] = (await dataSource.query(`SELECT "audit_events_ensure_partitions"($1) AS "created"`, [AUDIT_MONTHS_AHEAD])) as [
    { created: number },
  ];
  const partitions = (await dataSource.query(
    `SELECT c.relname AS "name" FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = '"audit_events"'::regclass`,
  )) as { name: string }[];
  const horizon = now.getTime() - retentionDays * DAY_MS;
  const dropped: string[] = [];
  for (const { name } of partitions) {
    const m = PARTITION_NAME.exec(name);
    if (!m) continue;
    // The partition ends where the next month starts (UTC).
    const end = Date.UTC(Number(m[1]), Number(m[2]), 1);
    if (end > horizon) continue;
    await dataSource.query(`DROP TABLE IF EXISTS "${name}"`);
    dropped.push(name);
  }
  return { created: Number(created), dropped };
}

/**
 * Runs {@link maintainAuditPartitions} on the instance that holds the background jobs' lease:
 * when it takes the lease (at start, or from a holder that died) and then daily.
 */
@Injectable()
export class AuditPartitions implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AuditPartitions');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(AccountConfig) private readonly config: AccountConfig,
    private readonly leader: JobLeader,
  ) {}

  onModuleInit(): void {
    // Not fatal: with migrations still pending (DATABASE_AUTO_MIGRATE=false) the service starts
    // unready, and the migration itself creates the months ahead.
    this.leader.onAcquired('audit partitions', () =>
      this.run().catch((err: unknown) => this.logger.warn(`audit partitions not maintained: ${(err as Error).message}`)),
    );
    this.timer = setInterval(() => {
      if (this.leader.isLeader()) void this.run().catch((err: unknown) => this.logger.error(err));
    }, DAY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async run(): Promise<void> {
    const { created, dropped } = await maintainAuditPartitions(this.dataSource, this.config.AUDIT_RETENTION_DAYS);
    if (created > 0 || dropped.length > 0) this.logger.log(`audit partitions: ${created} created, dropped ${dropped.join(', ') || 'none'}`);
  }
}
