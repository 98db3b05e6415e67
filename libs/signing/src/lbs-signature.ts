import type { KeyObject } from 'node:crypto';
import { hmacSha256Hex, signatureMatches } from './hmac';
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
  return signatureMatches(signLbs(key, operation, signedNames, values), signature);
}
