import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Personal data at rest (docs/contract.md §11): `cert_id` and `user_mobile` hold ciphertexts
 * (`v1:<key id>:<base64>`), longer than the plain values the API accepts (the API's limits
 * stay on the DTOs). Rows written before are encrypted by `encryptPlaintextPii` at start.
 */
export class PiiAtRest1767226100000 implements MigrationInterface {
  name = 'PiiAtRest1767226100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ALTER COLUMN "cert_id" TYPE text, ALTER COLUMN "user_mobile" TYPE text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ALTER COLUMN "cert_id" TYPE varchar(32), ALTER COLUMN "user_mobile" TYPE varchar(16)`);
  }
}
