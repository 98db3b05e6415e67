import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The leases of the background jobs (docs/operations.md "Scale out"): one row per job group,
 * its holder (an instance) and until when it holds it. The instance that holds the lease runs
 * the group's jobs; another takes it over once it has expired.
 */
export class JobLeases1767226400000 implements MigrationInterface {
  name = 'JobLeases1767226400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "job_leases" (
        "name" varchar(64) PRIMARY KEY,
        "holder" varchar(200) NOT NULL,
        "expires_at" timestamptz NOT NULL,
        "acquired_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "job_leases"`);
  }
}
