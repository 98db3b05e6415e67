import type { KeyObject } from 'node:crypto';
import { hmacSha256Hex, signatureMatches } from './hmac';

/** The optional business parameters every location operation takes (and signs). */
export const LBS_BUSINESS_PARAMS = ['productId', 'busdepId', 'merId'] as const;

/** Names of an operation's signed parameters: its own plus the business ones, ASCII order. */
export function lbsSignedNames(ownParams: readonly string[]): string[] {
  return [...new Set([...ownParams, ...LBS_BUSINESS_PARAMS])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * CONTRACT §3 plaintext: `operation:` then the values of the operation's parameters in
 * alphabetical order of name, colon-separated, absent ones empty.
 * `values` is keyed by the bare name (without the `param.` prefix).
 */
export function lbsPlaintext(operation: string, signedNames: readonly string[], values: Readonly<Record<string, string | undefined>>): string {
  let text = `${operation}:`;
  for (let i = 0; i < signedNames.length; i++) {
    if (i > 0) text += ':';
    text += values[signedNames[i] as string] ?? '';
  }
  return text;
}

export function signLbs(key: KeyObject | string, operation: string, signedNames: readonly string[], values: Readonly<Record<string, string | undefined>>): string {
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
