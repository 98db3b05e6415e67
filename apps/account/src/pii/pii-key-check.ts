import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiException } from '@geoaccount/api';
import { AccountCodes } from '../common/account-codes';
import { PiiCipher, PiiDecryptError, type PiiField } from './pii-cipher';
import { keyIdsInUse } from './pii-key-columns';

/** While keys are missing, readiness looks again this often (another replica's rotation may have moved the data). */
const RECHECK_MS = 30_000;

/**
 * Keys that cannot be lost track of (docs/contract.md §11, §6 90503): the key ids of the
 * stored encrypted values (every column of `PII_KEY_COLUMNS`, through their key-id indexes)
 * against the ring of `PII_KEYS`. A key id in use and missing from the ring takes the instance
 * out of readiness (503 naming the ids) instead of failing one request per row; a value that
 * does not decrypt while serving answers 503 90503, and the log names its row and key id.
 */
@Injectable()
export class PiiKeyCheck {
  private readonly logger = new Logger('Pii');
  /** Key id → the columns (`table.column`) holding values under it, for the ids not in the ring. */
  private missing = new Map<string, string[]>();
  private checkedAt: number | undefined;
  private running?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: PiiCipher,
  ) {}

  /** Lists the key ids in use (a few index probes) and compares them with the ring. */
  check(): Promise<void> {
    this.running ??= this.compare().finally(() => (this.running = undefined));
    return this.running;
  }

  /** The key ids in use and missing from the ring, with where they are used; looks again when due. */
  async missingKeys(): Promise<Record<string, string[]>> {
    const due = this.checkedAt === undefined || (this.missing.size > 0 && performance.now() - this.checkedAt >= RECHECK_MS);
    if (due) await this.check();
    return Object.fromEntries(this.missing);
  }

  /**
   * Opens one stored value of a row. A value that does not decrypt is logged with its row and
   * key id (never the value) and answered 503 90503, whose message names no data; a missing
   * key also takes the instance out of readiness.
   */
  open(appToken: string, userLoginId: string, field: PiiField, stored: string | null): string | null {
    try {
      return this.cipher.decrypt(appToken, userLoginId, field, stored);
    } catch (err) {
      if (!(err instanceof PiiDecryptError)) throw err;
      this.logger.error(
        `users row (app_token ${appToken}, user_login_id ${userLoginId}), ${field}: does not decrypt ` +
          `(key id ${err.keyId ?? 'unreadable'}${err.keyMissing ? ', not in PII_KEYS' : ', damaged value'})`,
      );
      if (err.keyMissing && err.keyId !== undefined && !this.missing.has(err.keyId)) {
        this.missing.set(err.keyId, [`users.${field}`]);
        this.checkedAt = performance.now();
      }
      throw new ApiException(AccountCodes.PII_UNAVAILABLE);
    }
  }

  private async compare(): Promise<void> {
    const used = await keyIdsInUse(this.dataSource);
    const ring = new Set(this.cipher.keyIds);
    const missing = new Map([...used].filter(([id]) => !ring.has(id)));
    const before = [...this.missing.keys()].sort().join(',');
    this.missing = missing;
    this.checkedAt = performance.now();
    const now = [...missing.keys()].sort().join(',');
    if (now && now !== before) {
      const where = [...missing].map(([id, columns]) => `${id} (${columns.join(', ')})`).join('; ');
      this.logger.error(
        `stored personal data under key ids missing from PII_KEYS: ${where}; not ready until they are in the ring ` +
          `(add the key to PII_KEYS; data of the development key: pnpm rotate-pii --from-development-key)`,
      );
    } else if (!now && before) this.logger.log('every key id of the stored personal data is in PII_KEYS again');
  }
}
