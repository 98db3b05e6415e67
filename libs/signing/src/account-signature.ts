import type { KeyObject } from 'node:crypto';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RegisteredApp } from './credentials';
import { hmacSha256Hex, signatureMatches } from './hmac';
import { accountPlaintext } from './portable';

/** The account signature of one request to `path`: lowercase hex HMAC-SHA256 of `accountPlaintext`. */
export function signAccount(
  key: KeyObject | string,
  method: string,
  appToken: string,
  path: string,
  params: Readonly<Record<string, string>>,
): string {
  return hmacSha256Hex(key, accountPlaintext(method, appToken, path, params));
}

export function verifyAccount(
  key: KeyObject | string,
  method: string,
  appToken: string,
  path: string,
  params: Readonly<Record<string, string>>,
  signature: unknown,
): boolean {
  return signatureMatches(signAccount(key, method, appToken, path, params), signature);
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/**
 * The credential among `candidates` whose secret verifies `signature` (docs/contract.md §14:
 * each active secret of the app is tried; an expired one is refused as if revoked), or
 * `undefined`. The plaintext is built once; each comparison is constant-time.
 */
export function verifyAccountCredential(
  candidates: readonly RegisteredApp[],
  method: string,
  appToken: string,
  path: string,
  params: Readonly<Record<string, string>>,
  signature: unknown,
  now = Date.now(),
): RegisteredApp | undefined {
  if (typeof signature !== 'string' || !HEX64.test(signature)) return undefined;
  const received = Buffer.from(signature, 'hex');
  const plaintext = accountPlaintext(method, appToken, path, params);
  let match: RegisteredApp | undefined;
  for (const candidate of candidates) {
    if (candidate.expiresAt !== undefined && candidate.expiresAt <= now) continue;
    const expected = createHmac('sha256', candidate.hmacKey).update(plaintext, 'utf8').digest();
    if (timingSafeEqual(expected, received) && match === undefined) match = candidate;
  }
  return match;
}
