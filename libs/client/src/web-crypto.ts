/**
 * The client's cryptography on the Web Crypto API, which Node ≥ 20 and every current browser
 * have as `globalThis.crypto`: HMAC-SHA256 signatures (docs/contract.md §2, §3) and the login password's
 * AES-128-GCM (§4). AES-ECB, which Web Crypto does not offer, comes from `@noble/ciphers`.
 */
import { ecb } from '@noble/ciphers/aes.js';
import type { AesMode } from '@geoaccount/signing/portable';

/** Web Crypto's types, taken from the global so that they resolve under Node's and the DOM's typings alike. */
type Subtle = typeof globalThis.crypto.subtle;
export type WebCryptoKey = Awaited<ReturnType<Subtle['importKey']>>;

const subtle = (): Subtle => {
  const c = globalThis.crypto;
  if (!c?.subtle) throw new Error('@geoaccount/client needs the Web Crypto API (Node ≥ 20, a browser on https or localhost)');
  return c.subtle;
};
const utf8 = new TextEncoder();

/** An HMAC-SHA256 key, imported once per client. */
export function importHmacKey(secret: string): Promise<WebCryptoKey> {
  return subtle().importKey('raw', utf8.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** Lowercase hex HMAC-SHA256 of the UTF-8 message. */
export async function hmacSha256Hex(key: WebCryptoKey, message: string): Promise<string> {
  return toHex(new Uint8Array(await subtle().sign('HMAC', key, utf8.encode(message))));
}

/** docs/contract.md §4: the first 16 bytes of SHA1(SHA1(UTF-8 aesKey)), what Java's SHA1PRNG-seeded KeyGenerator derives. */
export async function deriveAesKey(aesKey: string): Promise<Uint8Array> {
  const once = await subtle().digest('SHA-1', utf8.encode(aesKey));
  return new Uint8Array(await subtle().digest('SHA-1', once)).slice(0, 16);
}

/**
 * `user_pwd_encrypt` of a password: Base64(IV ‖ ciphertext ‖ tag) with AES-128-GCM and a fresh
 * 12-byte IV, or Base64(AES-128-ECB with PKCS#7) for `ecb` apps (what Java's `Cipher.getInstance("AES")` gives).
 */
export async function encryptPassword(password: string, key: Uint8Array, mode: AesMode, iv?: Uint8Array): Promise<string> {
  const plain = utf8.encode(password);
  if (mode === 'ecb') return toBase64(ecb(key).encrypt(plain));
  const nonce = iv ?? randomBytes(12);
  const gcmKey = await subtle().importKey('raw', key as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt']);
  const sealed = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: nonce as Uint8Array<ArrayBuffer>, tagLength: 128 }, gcmKey, plain));
  const out = new Uint8Array(nonce.length + sealed.length);
  out.set(nonce);
  out.set(sealed, nonce.length);
  return toBase64(out);
}

export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
