import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';

/** An HMAC key made once per app: a KeyObject is several times cheaper per call than a Buffer key. */
export function hmacKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/** HMAC-SHA256 of the UTF-8 message, 32 bytes. */
export function hmacSha256(key: KeyObject | string, message: string): Buffer {
  return createHmac('sha256', typeof key === 'string' ? hmacKey(key) : key)
    .update(message, 'utf8')
    .digest();
}

/** Lowercase hex HMAC-SHA256 of the UTF-8 message. */
export function hmacSha256Hex(key: KeyObject | string, message: string): string {
  return hmacSha256(key, message).toString('hex');
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/**
 * Compares a received hex signature with the expected one (hex, or the digest's bytes) in
 * constant time; case-insensitive.
 */
export function signatureMatches(expected: string | Buffer, received: unknown): boolean {
  if (typeof received !== 'string' || !HEX64.test(received)) return false;
  return timingSafeEqual(typeof expected === 'string' ? Buffer.from(expected, 'hex') : expected, Buffer.from(received, 'hex'));
}
