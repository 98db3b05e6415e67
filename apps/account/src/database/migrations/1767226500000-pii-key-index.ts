import type { MigrationInterface, QueryRunner } from 'typeorm';
import { piiKeyIndexName, piiKeyIndexSql } from '../../pii/pii-key-columns';

const COLUMNS = [
  { table: 'users', column: 'cert_id' },
  { table: 'users', column: 'user_mobile' },
];

/**
 * A partial index on the key id of the encrypted personal values (docs/contract.md §11): at
 * start the service lists the key ids in use with a few index probes (`keyIdsInUse`), whatever
 * the number of users, and refuses readiness when one is missing from `PII_KEYS`.
 */
export class PiiKeyIndex1767226500000 implements MigrationInterface {
  name = 'PiiKeyIndex1767226500000';

  async up(q: QueryRunner): Promise<void> {
    for (const target of COLUMNS) await q.query(piiKeyIndexSql(target));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const target of COLUMNS) await q.query(`DROP INDEX IF EXISTS "${piiKeyIndexName(target)}"`);
  }
}
