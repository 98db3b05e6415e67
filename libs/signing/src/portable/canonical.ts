/**
 * The plaintexts of both signature schemes (docs/contract.md §2, §3), as pure string functions with no
 * Node API: the services verify with them and the client SDK (Node and browsers) signs with them.
 */

/** RFC 3986 percent-encoding: every byte outside `A-Z a-z 0-9 - . _ ~` becomes `%XX`. */
export function rfc3986(value: string): string {
  // Most names and values (ids, timestamps, hex signatures) have nothing to encode: the text
  // itself, without encoding and scanning it twice (a fast path of every signed request).
  if (UNRESERVED_ONLY.test(value)) return value;
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
const UNRESERVED_ONLY = /^[A-Za-z0-9\-._~]*$/;

/** Parameters that never take part in an account signature. */
export const UNSIGNED_PARAMS: ReadonlySet<string> = new Set(['app_token', 'signature']);

/**
 * The path as it takes part in the plaintext (docs/contract.md §2): the request's path from the service
 * prefix on (e.g. `/account/v1.0.1/users/alice/auths`), query string dropped, each segment
 * percent-decoded and then encoded per RFC 3986, joined by `/`. So `/users/%e5%bc%a0` and
 * `/users/张` give the same text, and `a%2Fb` stays one segment. Throws `URIError` on a
 * malformed escape such as `%zz`.
 */
export function canonicalPath(path: string): string {
  const q = path.indexOf('?');
  const bare = q < 0 ? path : path.slice(0, q);
  return bare
    .split('/')
    .map((segment) => rfc3986(decodeURIComponent(segment)))
    .join('/');
}

/**
 * docs/contract.md §2 plaintext: `UPPER(method) + app_token + path + "?" + join("&", name=value sorted
 * by name)`, the path canonical (see `canonicalPath`), names and values percent-encoded, sorted
 * byte-wise by the encoded name. `path` is the path as sent on the wire, from the service prefix
 * on; `params` must already contain the path id under its field name. `app_token` and
 * `signature` are left out.
 */
export function accountPlaintext(method: string, appToken: string, path: string, params: Readonly<Record<string, string>>): string {
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
  return `${method.toUpperCase()}${appToken}${canonicalPath(path)}?${pairs.join('&')}`;
}

/** The optional business parameters every location operation takes (and signs). */
export const LBS_BUSINESS_PARAMS = ['productId', 'busdepId', 'merId'] as const;

/** Names of an operation's signed parameters: its own plus the business ones, ASCII order. */
export function lbsSignedNames(ownParams: readonly string[]): string[] {
  return [...new Set([...ownParams, ...LBS_BUSINESS_PARAMS])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * docs/contract.md §3 plaintext: `operation:` then the values of the operation's parameters in
 * alphabetical order of name, colon-separated, absent ones empty.
 * `values` is keyed by the bare name (without the `param.` prefix).
 */
export function lbsPlaintext(
  operation: string,
  signedNames: readonly string[],
  values: Readonly<Record<string, string | undefined>>,
): string {
  let text = `${operation}:`;
  for (let i = 0; i < signedNames.length; i++) {
    if (i > 0) text += ':';
    text += values[signedNames[i] as string] ?? '';
  }
  return text;
}
