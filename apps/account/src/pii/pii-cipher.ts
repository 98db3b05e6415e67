import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { PiiKey } from './pii-keys';

/** Fields of `users` held encrypted. */
export type PiiField = 'cert_id' | 'user_mobile';
export const PII_FIELDS: readonly PiiField[] = ['cert_id', 'user_mobile'];
/** Fields of `app_credentials` held encrypted under the same ring (docs/contract.md §14). */
export type CredentialField = 'secret' | 'aes_key';
/** Every field the cipher seals; the associated data names it. */
export type SealedField = PiiField | CredentialField;

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored value that does not decrypt (moved to another row, altered, or its key removed). */
export class PiiDecryptError extends Error {
  constructor(
    reason: string,
    /** The key id the value names (`undefined`: none could be read). */
    readonly keyId?: string,
    /** Set when the value's key is not in the ring (rather than a damaged value). */
    readonly keyMissing = false,
  ) {
    super(`personal data does not decrypt: ${reason}`);
    this.name = 'PiiDecryptError';
  }
}

/**
 * AES-256-GCM of one personal value (docs/contract.md §11): a fresh IV per value, the associated data
 * binding the app, the login id and the field, stored as `v1:<key id>:<base64(iv|ct|tag)>`.
 * Empty values and `null` are stored as they are.
 */
export class PiiCipher {
  private readonly byId: Map<string, Buffer>;
  private readonly current: PiiKey;

  constructor(keys: readonly PiiKey[]) {
    if (keys.length === 0) throw new Error('PiiCipher: no key');
    this.current = keys[0]!;
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  /** The ids of the ring's keys, the encrypting one first. */
  get keyIds(): string[] {
    return [...this.byId.keys()];
  }

  /** The id of the key new values are encrypted with. */
  get currentKeyId(): string {
    return this.current.id;
  }

  encrypt(appToken: string, userLoginId: string, field: SealedField, value: string): string;
  encrypt(appToken: string, userLoginId: string, field: SealedField, value: string | null | undefined): string | null | undefined;
  encrypt(appToken: string, userLoginId: string, field: SealedField, value: string | null | undefined): string | null | undefined {
    if (!value) return value;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(associatedData(appToken, userLoginId, field));
    const body = Buffer.concat([iv, cipher.update(value, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}:${this.current.id}:${body.toString('base64')}`;
  }

  /**
   * The plain value of a stored one. A value without the `v1:` prefix is a row written before
   * encryption (not yet converted) and is returned as stored.
   */
  decrypt(appToken: string, userLoginId: string, field: SealedField, stored: string | null): string | null {
    if (!stored || !isEncrypted(stored)) return stored;
    const keyId = keyIdOf(stored)!;
    const key = this.byId.get(keyId);
    if (!key) throw new PiiDecryptError(`key ${keyId} is not in PII_KEYS`, keyId, true);
    const body = Buffer.from(stored.slice(VERSION.length + keyId.length + 2), 'base64');
    if (body.length < IV_BYTES + TAG_BYTES) throw new PiiDecryptError(`truncated value under key ${keyId}`, keyId);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
      decipher.setAAD(associatedData(appToken, userLoginId, field));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new PiiDecryptError(`authentication failed for ${field} under key ${keyId}`, keyId);
    }
  }

  /** True when `stored` needs re-encryption: plain text, or encrypted under another key than the first. */
  isStale(stored: string | null): boolean {
    if (!stored) return false;
    return keyIdOf(stored) !== this.current.id;
  }
}

export function isEncrypted(stored: string): boolean {
  return stored.startsWith(`${VERSION}:`) && stored.indexOf(':', VERSION.length + 1) > 0;
}

/** The key id of an encrypted value; `undefined` for plain text. */
export function keyIdOf(stored: string): string | undefined {
  if (!isEncrypted(stored)) return undefined;
  return stored.slice(VERSION.length + 1, stored.indexOf(':', VERSION.length + 1));
}

/** Unambiguous (JSON) so that no two (app, login id, field) triples give the same bytes. */
function associatedData(appToken: string, userLoginId: string, field: SealedField): Buffer {
  return Buffer.from(JSON.stringify([appToken, userLoginId, field]), 'utf8');
}

/** Every character (code point) but the last 4 as `*` (docs/contract.md §10). */
export function maskPii(value: string | null | undefined): string | null | undefined {
  if (!value) return value;
  const chars = Array.from(value);
  return chars.map((c, i) => (i < chars.length - 4 ? '*' : c)).join('');
}
