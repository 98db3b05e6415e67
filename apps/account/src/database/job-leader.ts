import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The lease of the account service's background jobs (a row of `job_leases`). */
export const BACKGROUND_JOBS_LEASE = 'background-jobs';

/** How long a lease lasts unrenewed, and how often its holder renews it (and others try to take it). */
export interface LeaseTiming {
  ttlMs: number;
  renewMs: number;
}

/**
 * A dead holder's lease expires within 30 s and is taken within the next 10 s: the jobs move to
 * another instance within 40 s (docs/operations.md "Scale out").
 */
export const LEASE_TIMING: LeaseTiming = { ttlMs: 30_000, renewMs: 10_000 };

/** Local margin: this instance stops calling itself the holder 2 s before the row says so. */
const SAFETY_MS = 2_000;

/**
 * Takes or renews the lease `name` for `holder` in one statement: inserted when absent, taken
 * when expired, renewed when `holder` has it. True when `holder` holds it afterwards.
 */
export async function claimLease(dataSource: DataSource, name: string, holder: string, ttlMs: number): Promise<boolean> {
  const rows = (await dataSource.query(
    `INSERT INTO "job_leases" ("name", "holder", "expires_at") VALUES ($1, $2, now() + make_interval(secs => $3::float8))
     ON CONFLICT ("name") DO UPDATE SET
       "holder" = EXCLUDED."holder",
       "expires_at" = EXCLUDED."expires_at",
       "acquired_at" = CASE WHEN "job_leases"."holder" = EXCLUDED."holder" THEN "job_leases"."acquired_at" ELSE now() END
      WHERE "job_leases"."holder" = EXCLUDED."holder" OR "job_leases"."expires_at" < now()
     RETURNING 1`,
    [name, holder, ttlMs / 1000],
  )) as unknown[];
  return rows.length === 1;
}

/**
 * One instance at a time runs the background jobs (audit partition upkeep, purges, the start-time
 * scan of personal data): the holder of a lease in PostgreSQL, renewed every `renewMs`. Jobs
 * register with {@link onAcquired} (run each time this instance becomes the holder) and check
 * {@link isLeader} before a periodic run. When the holder dies, its lease expires and another
 * instance takes it; on shutdown the holder gives it up at once.
 */
@Injectable()
export class JobLeader implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  readonly holder = `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
  private readonly logger = new Logger('JobLeader');
  private readonly acquiredJobs: { name: string; run: () => Promise<void> }[] = [];
  private heldUntil = 0;
  private leader = false;
  private timer?: NodeJS.Timeout;
  private warned = false;
  private timing: LeaseTiming = LEASE_TIMING;

  constructor(private readonly dataSource: DataSource) {}

  /** Runs `run` whenever this instance becomes the holder (its errors are logged). */
  onAcquired(name: string, run: () => Promise<void>): void {
    this.acquiredJobs.push({ name, run });
  }

  /** True while this instance holds the lease. */
  isLeader(): boolean {
    return this.leader && performance.now() < this.heldUntil;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.timing.renewMs);
    this.timer.unref();
  }

  /** Takes or renews the lease; runs the jobs of an acquisition. */
  async tick(): Promise<void> {
    const started = performance.now();
    let held: boolean;
    try {
      held = await claimLease(this.dataSource, BACKGROUND_JOBS_LEASE, this.holder, this.timing.ttlMs);
      this.warned = false;
    } catch (err) {
      // E.g. the database away, or migrations still pending: the lease lapses by itself.
      if (!this.warned) this.logger.warn(`job lease not renewed: ${(err as Error).message}`);
      this.warned = true;
      return;
    }
    const was = this.isLeader();
    this.leader = held;
    if (held) this.heldUntil = started + this.timing.ttlMs - SAFETY_MS;
    if (held && !was) {
      this.logger.log(`holds the lease of the background jobs (${this.holder})`);
      for (const job of this.acquiredJobs) {
        await job.run().catch((err: unknown) => this.logger.warn(`${job.name} failed: ${(err as Error).message}`));
      }
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    if (!this.leader) return;
    this.leader = false;
    await this.dataSource
      .query(`DELETE FROM "job_leases" WHERE "name" = $1 AND "holder" = $2`, [BACKGROUND_JOBS_LEASE, this.holder])
      .catch(() => undefined);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
