import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NonceStore } from '@geoaccount/signing';
import { JobLeader } from './job-leader';

const PURGE_EVERY_MS = 60_000;

/**
 * Nonces in PostgreSQL, so a replay is refused by every instance: a (app, nonce) row lives
 * until `expires_at`; claiming an expired one takes it over. Expired rows are purged
 * periodically, by the instance that holds the background jobs' lease.
 */
@Injectable()
export class PgNonceStore implements NonceStore, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(PgNonceStore.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly leader?: JobLeader,
  ) {}

  async claim(appToken: string, nonce: string, ttlSeconds: number): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `INSERT INTO "request_nonces" ("app_token", "nonce", "expires_at")
       VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT ("app_token", "nonce") DO UPDATE SET "expires_at" = EXCLUDED."expires_at"
         WHERE "request_nonces"."expires_at" < now()
       RETURNING 1 AS claimed`,
      [appToken, nonce, ttlSeconds],
    )) as unknown[];
    return rows.length === 1;
  }

  /** Deletes expired nonces; returns how many. */
  async purge(): Promise<number> {
    const [, count] = (await this.dataSource.query(`DELETE FROM "request_nonces" WHERE "expires_at" < now()`)) as [unknown, number];
    return count;
  }

  onModuleInit(): void {
    this.timer = setInterval(() => {
      if (this.leader && !this.leader.isLeader()) return;
      this.purge().catch((err: unknown) => this.logger.warn(`nonce purge failed: ${(err as Error).message}`));
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
