import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadAccountConfig } from '../config/account.config';
import { rewrapCredentials } from '../credentials/credential-rewrap';
import { dataSourceOptions } from '../database/database.options';
import { PiiCipher } from './pii-cipher';
import { loadPiiKeys } from './pii-keys';
import { rewrapPii } from './pii-rewrap';

/**
 * Re-encrypts every `cert_id` / `user_mobile` not under the first key of `PII_KEYS` (plain
 * values included), then every app credential's secret and AES key (docs/contract.md §14), and exits: `node apps/account/dist/pii/rotate-pii.js` (`pnpm rotate-pii`),
 * e.g. as the Kubernetes Job `account-rotate-pii`. Batched and resumable, safe beside running
 * pods; prints its counts. Once it reports nothing left, older keys can be removed.
 */
async function rotate(): Promise<void> {
  const config = loadAccountConfig();
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required');
  const ring = loadPiiKeys(config);
  if (ring.warning) process.stderr.write(`rotate-pii: ${ring.warning}\n`);
  const cipher = new PiiCipher(ring.keys);
  const dataSource = new DataSource(dataSourceOptions({ ...config, url: config.DATABASE_URL }));
  await dataSource.initialize();
  try {
    const counts = await rewrapPii(dataSource, cipher, {
      onBatch: (c) => process.stdout.write(`rotate-pii: ${c.scanned} rows scanned, ${c.rewritten} re-encrypted\n`),
    });
    process.stdout.write(
      `rotate-pii: done under key ${cipher.currentKeyId}: ${counts.scanned} scanned, ${counts.rewritten} re-encrypted, ` +
        `${counts.skipped} changed meanwhile (already under the first key)\n`,
    );
    const credentials = await rewrapCredentials(dataSource, cipher, {
      onBatch: (c) => process.stdout.write(`rotate-pii: ${c.scanned} credentials scanned, ${c.rewritten} re-encrypted\n`),
    });
    process.stdout.write(
      `rotate-pii: credentials done under key ${cipher.currentKeyId}: ${credentials.scanned} scanned, ${credentials.rewritten} re-encrypted\n`,
    );
  } finally {
    await dataSource.destroy();
  }
}

rotate().catch((err: unknown) => {
  process.stderr.write(`rotate-pii: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
