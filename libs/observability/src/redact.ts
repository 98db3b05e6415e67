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

// name=value in query strings and messages (the value runs to the next separator).
const PAIR = /([A-Za-z0-9_.\-[\]]+)=([^&\s"',;]*)/g;
// "name": "value" / 'name': value in JSON-ish text.
const JSON_PAIR = /(["']?)([A-Za-z0-9_.-]+)\1(\s*:\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s,}\]]+)/g;
// scheme://user:password@host
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]*:)([^@/?#\s]+)@/gi;

/** Masks sensitive `name=value` pairs, JSON fields and URL passwords inside a string. */
export function redactText(text: string): string {
  if (text.length === 0) return text;
  // Each pattern needs its separator: a text without it is left alone without running the
  // pattern (the access log redacts every URL of every request; the three passes were most of
  // its cost).
  let out = text.includes('://') ? text.replace(URL_PASSWORD, `$1${REDACTED}@`) : text;
  if (out.includes('=')) out = out.replace(PAIR, (whole, name: string) => (isSensitiveKey(name) ? `${name}=${REDACTED}` : whole));
  if (out.includes(':')) {
    out = out.replace(JSON_PAIR, (whole, quote: string, name: string, colon: string) =>
      isSensitiveKey(name) ? `${quote}${name}${quote}${colon}"${REDACTED}"` : whole,
    );
  }
  return out;
}

/**
 * A URL as it may be logged: the path, and the query without its sensitive parameters
 * (percent-encoded names are decoded before they are judged); the other values pass
 * through `redactText`.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return redactText(url);
  const path = url.slice(0, q);
  const query = url
    .slice(q + 1)
    .split('&')
    .filter((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // keep the raw name
      }
      return !isSensitiveKey(name);
    })
    .map((pair) => redactText(pair))
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
