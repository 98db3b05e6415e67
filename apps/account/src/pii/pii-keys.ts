import { readFileSync } from 'node:fs';

/** One key of the ring: an id stored with every value it encrypts, and 32 bytes of AES key. */
export interface PiiKey {
  readonly id: string;
  readonly key: Buffer;
}

/** The id of the development key used when no keys are configured outside production. */
export const DEV_PII_KEY_ID = 'dev';
/** A fixed, public key: data written with it is not protected (development only). */
const DEV_PII_KEY = Buffer.alloc(32, 0x2a);

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The development key (id `dev`): what the service encrypts with when `PII_KEYS` is unset
 * outside production. `pnpm rotate-pii --from-development-key` adds it to the ring for one run,
 * to move data written with it under the real first key.
 */
export function developmentPiiKey(): PiiKey {
  return { id: DEV_PII_KEY_ID, key: DEV_PII_KEY };
}

export interface PiiKeySource {
  PII_KEYS?: string;
  PII_KEYS_FILE?: string;
  NODE_ENV?: string;
}

export interface PiiKeyRing {
  keys: PiiKey[];
  /** Set when the development key is in use: the warning to log (no key material). */
  warning?: string;
}

/**
 * The key ring of docs/contract.md §11: `PII_KEYS` (or the file `PII_KEYS_FILE`), a JSON array of
 * `{"id","key"}` with base64 32-byte keys, the first one encrypting. Errors name the problem,
 * never the key material. Without keys, production refuses; elsewhere the development key.
 */
export function loadPiiKeys(source: PiiKeySource): PiiKeyRing {
  let text = source.PII_KEYS?.trim() || undefined;
  if (!text && source.PII_KEYS_FILE) text = readFileSync(source.PII_KEYS_FILE, 'utf8').trim() || undefined;
  if (!text) {
    if (source.NODE_ENV === 'production') throw new Error('PII_KEYS or PII_KEYS_FILE is required when NODE_ENV=production');
    return {
      keys: [{ id: DEV_PII_KEY_ID, key: DEV_PII_KEY }],
      warning: 'PII_KEYS is not set: certificate and mobile numbers are encrypted with the public development key',
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('PII_KEYS: expected a JSON array of {"id","key"}');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('PII_KEYS: expected a non-empty JSON array of {"id","key"}');
  const seen = new Set<string>();
  const keys = parsed.map((item: unknown, i): PiiKey => {
    const { id, key } = (item ?? {}) as { id?: unknown; key?: unknown };
    if (typeof id !== 'string' || !KEY_ID.test(id)) throw new Error(`PII_KEYS[${i}]: id must be 1-32 of A-Z a-z 0-9 _ -`);
    if (seen.has(id)) throw new Error(`PII_KEYS[${i}]: id ${id} appears twice`);
    seen.add(id);
    const bytes = typeof key === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(key) ? Buffer.from(key, 'base64') : undefined;
    if (bytes?.length !== 32) throw new Error(`PII_KEYS[${i}] (${id}): key must be 32 bytes in base64`);
    return { id, key: bytes };
  });
  return { keys };
}
