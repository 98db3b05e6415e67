import type { KeyObject } from 'node:crypto';
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
