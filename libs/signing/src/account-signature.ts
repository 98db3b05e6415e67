import type { KeyObject } from 'node:crypto';
import { hmacSha256Hex, signatureMatches } from './hmac';
import { accountPlaintext } from './portable';

export function signAccount(key: KeyObject | string, method: string, appToken: string, params: Readonly<Record<string, string>>): string {
  return hmacSha256Hex(key, accountPlaintext(method, appToken, params));
}

export function verifyAccount(
  key: KeyObject | string,
  method: string,
  appToken: string,
  params: Readonly<Record<string, string>>,
  signature: unknown,
): boolean {
  return signatureMatches(signAccount(key, method, appToken, params), signature);
}
