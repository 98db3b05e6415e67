import type { DataSource } from 'typeorm';
import { ALL_APPS } from '../common/app-scope';
import type { PiiCipher } from '../pii/pii-cipher';
import { CredentialsRepository } from './credentials.repository';

export interface CredentialRewrapCounts {
  scanned: number;
  rewritten: number;
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
  const repository = new CredentialsRepository(dataSource);
  for (;;) {
    // Every app's credentials: the key ring is the deployment's, not an app's.
    const rows = await dataSource.transaction(async (em) => {
      const rows = await repository.staleBatch(em, ALL_APPS, cipher.currentKeyId, after, batchSize);
      for (const row of rows) {
        counts.scanned++;
        const secret = cipher.decrypt(row.appToken, row.credentialId, 'secret', row.secret)!;
        const aesKey = cipher.decrypt(row.appToken, row.credentialId, 'aes_key', row.aesKey)!;
        await repository.reseal(
          em,
          row.appToken,
          row.credentialId,
          cipher.encrypt(row.appToken, row.credentialId, 'secret', secret),
          cipher.encrypt(row.appToken, row.credentialId, 'aes_key', aesKey),
          cipher.currentKeyId,
        );
        counts.rewritten++;
      }
      return rows;
    });
    if (rows.length === 0) return counts;
    after = rows[rows.length - 1]!.credentialId;
    options.onBatch?.({ ...counts });
  }
}
