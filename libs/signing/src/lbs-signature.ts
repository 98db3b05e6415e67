import type { KeyObject } from 'node:crypto';
import { hmacSha256, hmacSha256Hex, signatureMatches } from './hmac';
import { lbsPlaintext } from './portable';

export function signLbs(
  key: KeyObject | string,
  operation: string,
  signedNames: readonly string[],
  values: Readonly<Record<string, string | undefined>>,
): string {
  return hmacSha256Hex(key, lbsPlaintext(operation, signedNames, values));
}

export function verifyLbs(
  key: KeyObject | string,
  operation: string,
  signedNames: readonly string[],
  values: Readonly<Record<string, string | undefined>>,
  signature: unknown,
): boolean {
  // The digest's bytes, not its hex: no hex text made to be decoded again.
  return signatureMatches(hmacSha256(key, lbsPlaintext(operation, signedNames, values)), signature);
}
