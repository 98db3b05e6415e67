import { type KeyObject, createCipheriv, createDecipheriv, createHash, createSecretKey, randomBytes } from 'node:crypto';
import type { AesMode } from './portable';

/**
 * docs/contract.md §4 key: the first 16 bytes of SHA1(SHA1(UTF-8 aesKey)) — what Java's
 * `KeyGenerator("AES")` seeded through `SecureRandom("SHA1PRNG")` derives from the string.
 */
export function deriveAesKey(aesKey: string): Buffer {
  const once = createHash('sha1').update(aesKey, 'utf8').digest();
  return createHash('sha1').update(once).digest().subarray(0, 16);
}

/** `deriveAesKey` as a KeyObject, made once per app: a Buffer key is turned into one on every cipher. */
export function aesKeyObject(aesKey: string): KeyObject {
  return createSecretKey(deriveAesKey(aesKey));
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Encrypts a password the way a client does: Base64 of (IV ‖ ciphertext ‖ tag) for gcm, AES-ECB/PKCS#7 for ecb. */
export function encryptPassword(password: string, key: Buffer | KeyObject, mode: AesMode, iv: Buffer = randomBytes(IV_BYTES)): string {
  if (mode === 'ecb') {
    const cipher = createCipheriv('aes-128-ecb', key, null);
    return Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]).toString('base64');
  }
  const cipher = createCipheriv('aes-128-gcm', key, iv);
  const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64');
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Decrypts `user_pwd_encrypt`; `undefined` when it is not valid Base64, not decryptable, or not UTF-8. */
export function decryptPassword(encrypted: string, key: Buffer | KeyObject, mode: AesMode): string | undefined {
  if (!BASE64.test(encrypted) || encrypted.length % 4 !== 0) return undefined;
  const data = Buffer.from(encrypted, 'base64');
  try {
    let plain: Buffer;
    if (mode === 'ecb') {
      if (data.length === 0 || data.length % 16 !== 0) return undefined;
      const decipher = createDecipheriv('aes-128-ecb', key, null);
      plain = Buffer.concat([decipher.update(data), decipher.final()]);
    } else {
      if (data.length < IV_BYTES + TAG_BYTES) return undefined;
      const decipher = createDecipheriv('aes-128-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    }
    return UTF8.decode(plain);
  } catch {
    return undefined;
  }
}
