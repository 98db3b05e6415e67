import { EventEmitter } from 'node:events';

/**
 * Removes credentials and personal data from whatever is about to be logged: object fields
 * by name (at any depth), `name=value` pairs and JSON fragments inside strings (query
 * strings, error messages), and the password of a URL's user info.
 */

export const REDACTED = '[REDACTED]';

/** Field names whose values never reach a log, with or without an `_encrypt` suffix. */
export const SENSITIVE_FIELDS = [
  'user_pwd',
  'password',
  'passwd',
  'pwd',
  'signature',
  'sig',
  'secret',
  'app_secret',
  'aesKey',
  'aes_key',
  'hmacKey',
  'cert_id',
  'user_mobile',
  'authorization',
  'cookie',
  'set-cookie',
  'proxy-authorization',
  'x-api-key',
  'api_key',
  'apiKey',
  'amap_key',
  'key',
] as const;

const EXACT = new Set(SENSITIVE_FIELDS.map((name) => name.toLowerCase()));
/** Any name containing one of these is sensitive too (`APP_SECRET`, `dbPassword`, ...). */
const CONTAINS = ['secret', 'password', 'passwd', 'signature', 'user_pwd', 'cert_id', 'user_mobile', 'aeskey', 'aes_key', 'hmackey'];

export function isSensitiveKey(name: string): boolean {
  const lower = name.toLowerCase();
  const base = lower.endsWith('_encrypt') ? lower.slice(0, -'_encrypt'.length) : lower;
  if (EXACT.has(base)) return true;
  return CONTAINS.some((part) => lower.includes(part));
}

/**
 * At most this many characters of one string reach a log line; the rest is cut before any
 * scanning, with a note of how much was left out (docs/contract.md §13: request data is
 * bounded before it is logged).
 */
export const MAX_LOGGED_TEXT = 4096;
/** At most this many characters of a request's URL reach the access log. */
export const MAX_LOGGED_URL = 2048;

/** `text` cut to `max` characters, with the count of those left out. */
export function boundText(text: string, max = MAX_LOGGED_TEXT): string {
  if (text.length <= max) return text;
  // Never split a surrogate pair.
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…[${text.length - end} more characters]`;
}

/**
 * Masks sensitive `name=value` pairs, JSON fields and URL passwords inside a string, after
 * cutting it to `MAX_LOGGED_TEXT` characters.
 */
export function redactText(text: string): string {
  if (text.length === 0) return text;
  return redactWholeText(boundText(text));
}

/**
 * `redactText` without the bound. Every pass is a single forward scan (no regular
 * expression: a pattern such as `[\w.]+=` retried from each start of a long run of name
 * characters does quadratic work), so the cost is linear in the length of the text.
 */
export function redactWholeText(text: string): string {
  let out = text.includes('://') ? maskUrlPasswords(text) : text;
  if (out.includes('=')) out = maskPairs(out);
  if (out.includes(':')) out = maskJsonPairs(out);
  return out;
}

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** Characters of a name in `name=value`: letters, digits, `_ . - [ ]`. */
function isPairNameChar(c: number): boolean {
  return isAlnum(c) || c === 0x5f || c === 0x2e || c === 0x2d || c === 0x5b || c === 0x5d;
}

/** Characters that end the value of `name=value`: `& " ' , ;` and white space. */
function endsPairValue(c: number): boolean {
  return c === 0x26 || c === 0x22 || c === 0x27 || c === 0x2c || c === 0x3b || isSpace(c);
}

/** `name=value` (the value runs to the next separator): a sensitive name's value is masked. */
function maskPairs(text: string): string {
  let out = '';
  let copied = 0;
  let runStart = -1;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isPairNameChar(c)) {
      if (runStart < 0) runStart = i;
      i += 1;
      continue;
    }
    if (c === 0x3d && runStart >= 0) {
      let end = i + 1;
      while (end < text.length && !endsPairValue(text.charCodeAt(end))) end += 1;
      if (isSensitiveKey(text.slice(runStart, i))) {
        out += `${text.slice(copied, i + 1)}${REDACTED}`;
        copied = end;
      }
      i = end;
    } else {
      i += 1;
    }
    runStart = -1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Characters of a name in `"name": value`: letters, digits, `_ . -`. */
function isJsonNameChar(c: number): boolean {
  return isAlnum(c) || c === 0x5f || c === 0x2e || c === 0x2d;
}

/** Characters that end an unquoted JSON-ish value: `, } ]` and white space. */
function endsJsonValue(c: number): boolean {
  return c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c);
}

/** Index after the value that starts at `at` (quoted or not), or -1 when there is none. */
function jsonValueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === 0x22) {
    for (let i = at + 1; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 1;
      else if (c === 0x22) return i + 1;
    }
  } else if (first === 0x27) {
    const close = text.indexOf("'", at + 1);
    if (close >= 0) return close + 1;
  } else if (first === 0x7b || first === 0x5b) {
    // An object or an array: its own fields are scanned in turn.
    return -1;
  }
  // An unquoted value, or a quote never closed: up to the next separator.
  let end = at;
  while (end < text.length && !endsJsonValue(text.charCodeAt(end))) end += 1;
  return end > at ? end : -1;
}

/** `"name": value` / `'name': value` / `name: value`: a sensitive name's value is masked. */
function maskJsonPairs(text: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    if (!isJsonNameChar(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const nameStart = i;
    while (i < text.length && isJsonNameChar(text.charCodeAt(i))) i += 1;
    const nameEnd = i;
    const before = nameStart > copied ? text.charCodeAt(nameStart - 1) : -1;
    const quoted = (before === 0x22 || before === 0x27) && text.charCodeAt(nameEnd) === before;
    let k = quoted ? nameEnd + 1 : nameEnd;
    const colonFrom = k;
    while (k < text.length && isSpace(text.charCodeAt(k))) k += 1;
    if (text.charCodeAt(k) !== 0x3a) continue;
    k += 1;
    while (k < text.length && isSpace(text.charCodeAt(k))) k += 1;
    const end = k < text.length ? jsonValueEnd(text, k) : -1;
    if (end < 0) continue;
    const name = text.slice(nameStart, nameEnd);
    if (isSensitiveKey(name)) {
      const quote = quoted ? text[nameStart - 1] : '';
      const start = quoted ? nameStart - 1 : nameStart;
      out += `${text.slice(copied, start)}${quote}${name}${quote}${text.slice(colonFrom, k)}"${REDACTED}"`;
      copied = end;
    }
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Characters of a URL scheme after its first letter: letters, digits, `+ . -`. */
function isSchemeChar(c: number): boolean {
  return isAlnum(c) || c === 0x2b || c === 0x2e || c === 0x2d;
}

/** `scheme://user:password@host`: the password is masked. */
function maskUrlPasswords(text: string): string {
  let out = '';
  let copied = 0;
  let from = 0;
  for (;;) {
    const sep = text.indexOf('://', from);
    if (sep < 0) break;
    from = sep + 3;
    // A scheme: a run of scheme characters with a letter in it, right before `://`.
    let letter = false;
    for (let j = sep - 1; j >= copied && isSchemeChar(text.charCodeAt(j)); j -= 1) {
      const c = text.charCodeAt(j) | 0x20;
      if (c >= 0x61 && c <= 0x7a) letter = true;
    }
    if (!letter) continue;
    // user info: `user:password@`, the user without `: / ? # @` or white space, the
    // password without `@ / ? #` or white space.
    let k = from;
    while (k < text.length && !endsUser(text.charCodeAt(k))) k += 1;
    if (text.charCodeAt(k) !== 0x3a) continue;
    const passwordStart = k + 1;
    k = passwordStart;
    while (k < text.length && !endsPassword(text.charCodeAt(k))) k += 1;
    if (k === passwordStart || text.charCodeAt(k) !== 0x40) continue;
    out += `${text.slice(copied, passwordStart)}${REDACTED}`;
    copied = k;
    from = k + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function endsUser(c: number): boolean {
  return c === 0x3a || c === 0x2f || c === 0x3f || c === 0x23 || c === 0x40 || isSpace(c);
}

function endsPassword(c: number): boolean {
  return c === 0x40 || c === 0x2f || c === 0x3f || c === 0x23 || isSpace(c);
}

/**
 * A URL as it may be logged: cut to `MAX_LOGGED_URL` characters, the path, and the query
 * without its sensitive parameters (percent-encoded names are decoded before they are
 * judged); the other values pass through `redactText`, or are masked all when
 * `maskQueryValues` is set (location's queries carry coordinates and addresses, personal data).
 */
export function redactUrl(url: string, options: { maskQueryValues?: boolean } = {}): string {
  const bounded = boundText(url, MAX_LOGGED_URL);
  const q = bounded.indexOf('?');
  if (q < 0) return redactText(bounded);
  const path = bounded.slice(0, q);
  const query = bounded
    .slice(q + 1)
    .split('&')
    .filter((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // keep the raw name
      }
      return !isSensitiveKey(name);
    })
    .map((pair) => {
      if (!options.maskQueryValues) return redactText(pair);
      const eq = pair.indexOf('=');
      return eq < 0 ? redactText(pair) : `${redactText(pair.slice(0, eq))}=${REDACTED}`;
    })
    .join('&');
  return query === '' ? redactText(path) : `${redactText(path)}?${query}`;
}

const MAX_DEPTH = 8;

/**
 * A copy of `value` with sensitive fields masked at any depth; strings are passed through
 * `redactText`, errors become plain objects (type, message, code, stack) first. Cycles and
 * very deep structures are cut.
 */
export function redactDeep(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1, seen));
    if (value instanceof Error) return redactDeep(errorToObject(value), depth, seen);
    if (value instanceof Date) return value;
    if (Buffer.isBuffer(value)) return `[Buffer ${value.length} bytes]`;
    if (value instanceof EventEmitter) return `[${value.constructor.name}]`;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = isSensitiveKey(key) && item !== null && item !== undefined && item !== '' ? REDACTED : redactDeep(item, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/**
 * Fields of an error worth logging. A database error's query, parameters and detail are left
 * out: they may hold password hashes or personal data.
 */
function errorToObject(err: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { type: err.name, message: err.message };
  const extra = err as unknown as Record<string, unknown>;
  for (const key of ['code', 'errno', 'status', 'statusCode', 'constraint', 'table']) {
    if (extra[key] !== undefined && typeof extra[key] !== 'object') out[key] = extra[key];
  }
  if (err.stack) out.stack = err.stack;
  if (err.cause !== undefined) out.cause = err.cause instanceof Error ? errorToObject(err.cause) : err.cause;
  return out;
}
