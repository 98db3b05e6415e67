import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { type AccountConfig, loadAccountConfig } from '../config/account.config';
import { rewrapCredentials } from '../credentials/credential-rewrap';
import { dataSourceOptions } from '../database/database.options';
import { PiiCipher } from './pii-cipher';
import { keyIdsInUse } from './pii-key-columns';
import { DEV_PII_KEY_ID, type PiiKey, developmentPiiKey, loadPiiKeys } from './pii-keys';
import { rewrapPii } from './pii-rewrap';

const USAGE = 'usage: rotate-pii [--from-development-key]';

/** The ring of one run: `PII_KEYS`, plus the development key (last, decrypting only) with `--from-development-key`. */
export function rotationKeys(config: Pick<AccountConfig, 'PII_KEYS' | 'PII_KEYS_FILE' | 'NODE_ENV'>, args: readonly string[]): PiiKey[] {
  const unknown = args.filter((a) => a !== '--from-development-key');
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown[0]}; ${USAGE}`);
  const ring = loadPiiKeys(config);
  if (!args.includes('--from-development-key')) return ring.keys;
  if (ring.warning) {
    throw new Error('--from-development-key moves data to the keys of PII_KEYS (or PII_KEYS_FILE): set them first');
  }
  if (ring.keys.some((k) => k.id === DEV_PII_KEY_ID)) {
    throw new Error(`--from-development-key: PII_KEYS already has a key with the id "${DEV_PII_KEY_ID}" of the development key; rename it`);
  }
  return [...ring.keys, developmentPiiKey()];
}

/**
 * Re-encrypts every `cert_id` / `user_mobile` not under the first key of `PII_KEYS` (plain
 * values included), then every app credential's secret and AES key (docs/contract.md §14), and exits: `node apps/account/dist/pii/rotate-pii.js` (`pnpm rotate-pii`),
 * e.g. as the Kubernetes Job `account-rotate-pii`. Batched and resumable, safe beside running
 * pods; prints its counts and the key ids still in use. Once only the first key is in use,
 * older keys can be removed. `--from-development-key` also opens values written with the
 * development key (a service run without `PII_KEYS`), so they move to the real ring.
 */
async function rotate(args: readonly string[]): Promise<void> {
  const config = loadAccountConfig();
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required');
  const keys = rotationKeys(config, args);
  const ring = loadPiiKeys(config);
  if (ring.warning) process.stderr.write(`rotate-pii: ${ring.warning}\n`);
  const cipher = new PiiCipher(keys);
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
    const inUse = [...(await keyIdsInUse(dataSource)).keys()].sort();
    process.stdout.write(`rotate-pii: key ids in use: ${inUse.join(', ') || 'none'}\n`);
  } finally {
    await dataSource.destroy();
  }
}

if (require.main === module) {
  rotate(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`rotate-pii: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
