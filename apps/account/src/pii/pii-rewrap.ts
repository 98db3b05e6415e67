import type { DataSource } from 'typeorm';
import { PII_FIELDS, type PiiCipher, keyIdOf } from './pii-cipher';

export interface RewrapCounts {
  /** Rows looked at. */
  scanned: number;
  /** Rows whose values were re-encrypted under the first key (or encrypted, when plain). */
  rewritten: number;
  /** Rows not updated (changed between the read and the update; 0 while rows are locked). */
  skipped: number;
}

interface Row {
  app_token: string;
  user_login_id: string;
  cert_id: string | null;
  user_mobile: string | null;
}

/**
 * Encrypts every plain `cert_id` / `user_mobile` and re-encrypts every value not under the
 * first key of the ring (docs/contract.md §11). In batches in key order, each batch its own short
 * transaction: it can be stopped and run again (it starts over and finds only what is left),
 * and it runs while the service serves: each batch locks its rows (`FOR UPDATE`) for its few
 * milliseconds, so a concurrent modification waits and then wins.
 */
export async function rewrapPii(
  dataSource: DataSource,
  cipher: PiiCipher,
  options: { batchSize?: number; plainOnly?: boolean; onBatch?: (counts: RewrapCounts) => void } = {},
): Promise<RewrapCounts> {
  const batchSize = options.batchSize ?? 500;
  const counts: RewrapCounts = { scanned: 0, rewritten: 0, skipped: 0 };
  // Values outside this pattern are rewritten: any ciphertext (plainOnly) or one under the first key.
  const done = options.plainOnly ? 'v1:%' : `v1:${cipher.currentKeyId.replace(/_/g, '\\_')}:%`;
  let after: [string, string] = ['', ''];
  for (;;) {
    // The batch's rows are locked until it commits: a concurrent modification waits, then
    // writes its own values (already under the first key) over the re-encrypted ones.
    const rows = await dataSource.transaction(async (em) => {
      const rows = (await em.query(
        `SELECT "app_token", "user_login_id", "cert_id", "user_mobile" FROM "users"
          WHERE ("app_token", "user_login_id") > ($1, $2)
            AND (("cert_id" <> '' AND "cert_id" NOT LIKE $3) OR ("user_mobile" <> '' AND "user_mobile" NOT LIKE $3))
          ORDER BY "app_token", "user_login_id" LIMIT ${batchSize} FOR UPDATE`,
        [after[0], after[1], done],
      )) as Row[];
      for (const row of rows) {
        counts.scanned++;
        const next: Record<string, string | null> = {};
        for (const field of PII_FIELDS) {
          const stored = row[field];
          if (!cipher.isStale(stored) || (options.plainOnly && keyIdOf(stored!) !== undefined)) next[field] = stored;
          else {
            // Plain text is encrypted as it is; an older ciphertext is opened with its key first.
            const plain = keyIdOf(stored!) === undefined ? stored : cipher.decrypt(row.app_token, row.user_login_id, field, stored);
            next[field] = cipher.encrypt(row.app_token, row.user_login_id, field, plain) ?? null;
          }
        }
        const updated = (await em.query(
          `UPDATE "users" SET "cert_id" = $3, "user_mobile" = $4
            WHERE "app_token" = $1 AND "user_login_id" = $2
              AND "cert_id" IS NOT DISTINCT FROM $5 AND "user_mobile" IS NOT DISTINCT FROM $6`,
          [row.app_token, row.user_login_id, next.cert_id, next.user_mobile, row.cert_id, row.user_mobile],
        )) as [unknown, number];
        if (updated[1] === 1) counts.rewritten++;
        else counts.skipped++;
      }
      return rows;
    });
    if (rows.length === 0) return counts;
    const last = rows[rows.length - 1]!;
    after = [last.app_token, last.user_login_id];
    options.onBatch?.({ ...counts });
  }
}
