import type { KeyObject } from 'node:crypto';
import { hmacSha256Hex, signatureMatches } from './hmac';

/** RFC 3986 percent-encoding: every byte outside `A-Z a-z 0-9 - . _ ~` becomes `%XX`. */
export function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Parameters that never take part in an account signature. */
export const UNSIGNED_PARAMS: ReadonlySet<string> = new Set(['app_token', 'signature']);

/**
 * CONTRACT §2 plaintext: `UPPER(method) + app_token + join("&", name=value sorted by name)`,
 * names and values percent-encoded, sorted byte-wise by the encoded name.
 * `params` must already contain the path id under its field name and exclude `app_token`/`signature`.
 */
export function accountPlaintext(method: string, appToken: string, params: Readonly<Record<string, string>>): string {
  const pairs: string[] = [];
  for (const name of Object.keys(params)) {
    if (UNSIGNED_PARAMS.has(name)) continue;
    pairs.push(`${rfc3986(name)}=${rfc3986(params[name] ?? '')}`);
  }
  // Encoded names are ASCII, so a plain code-unit comparison is the byte-wise order.
  pairs.sort((a, b) => {
    const na = a.slice(0, a.indexOf('='));
    const nb = b.slice(0, b.indexOf('='));
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
  return method.toUpperCase() + appToken + pairs.join('&');
}

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
