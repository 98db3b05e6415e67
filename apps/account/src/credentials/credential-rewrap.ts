import type { DataSource } from 'typeorm';
import type { PiiCipher } from '../pii/pii-cipher';

export interface CredentialRewrapCounts {
  scanned: number;
  rewritten: number;
}

interface Row {
  app_token: string;
  credential_id: string;
  secret: string;
  aes_key: string;
}

/**
 * Re-seals every credential's secret and AES key not under the first key of the `PII_KEYS`
 * ring (docs/contract.md §11, §14; found by `key_id`): in batches, each its own short
 * transaction with its rows locked, resumable, beside running instances (which hold the
 * credentials in memory, in clear, and need no reload).
 */
export async function rewrapCredentials(
  dataSource: DataSource,
  cipher: PiiCipher,
  options: { batchSize?: number; onBatch?: (counts: CredentialRewrapCounts) => void } = {},
): Promise<CredentialRewrapCounts> {
  const batchSize = options.batchSize ?? 200;
  const counts: CredentialRewrapCounts = { scanned: 0, rewritten: 0 };
  let after = '';
  for (;;) {
    const rows = await dataSource.transaction(async (em) => {
      const rows = (await em.query(
        `SELECT "app_token", "credential_id", "secret", "aes_key" FROM "app_credentials"
          WHERE "key_id" <> $1 AND "credential_id" > $2 ORDER BY "credential_id" LIMIT ${Number(batchSize)} FOR UPDATE`,
        [cipher.currentKeyId, after],
      )) as Row[];
      for (const row of rows) {
        counts.scanned++;
        const secret = cipher.decrypt(row.app_token, row.credential_id, 'secret', row.secret)!;
        const aesKey = cipher.decrypt(row.app_token, row.credential_id, 'aes_key', row.aes_key)!;
        await em.query(`UPDATE "app_credentials" SET "secret" = $2, "aes_key" = $3, "key_id" = $4 WHERE "credential_id" = $1`, [
          row.credential_id,
          cipher.encrypt(row.app_token, row.credential_id, 'secret', secret),
          cipher.encrypt(row.app_token, row.credential_id, 'aes_key', aesKey),
          cipher.currentKeyId,
        ]);
        counts.rewritten++;
      }
      return rows;
    });
    if (rows.length === 0) return counts;
    after = rows[rows.length - 1]!.credential_id;
    options.onBatch?.({ ...counts });
  }
}
