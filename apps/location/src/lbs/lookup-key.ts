/**
 * Canonical forms of the lookup parameters and the cache key built from them. The key holds
 * only what decides an answer: the operation, the sources that compute it, the datum of the
 * answer, and the normalised parameters — never `productId`, `busdepId` or `merId`.
 */
import { hash } from 'node:crypto';

/** Decimal degrees with the fixed precision of the service (6 decimals, about 0.1 m). */
export function formatDegrees(value: number): string {
  const text = value.toFixed(6);
  return text === '-0.000000' ? '0.000000' : text;
}

/** Canonical coordinate text: `116.397`, `116.3970000` and `+116.397` are the same point. */
export function canonicalDegrees(text: string): string {
  return formatDegrees(Number(text));
}

/** Canonical free text: Unicode NFKC (full-width digits and letters folded), trimmed, inner blanks collapsed. */
export function canonicalText(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/gu, ' ');
}

/** Canonical integer text: leading zeros dropped (`004600` → `4600`). */
export function canonicalDigits(text: string): string {
  return text.replace(/^0+(?=\d)/, '');
}

export interface KeyContext {
  prefix: string;
  /** What computes the answer (e.g. `amap`, `offline+amap` for base stations). */
  source: string;
  /** Datum of the coordinates of the answer (COORD_SYSTEM). */
  datum: string;
  /** `CACHE_SCOPE=app`: the calling app, whose entries are its own. */
  app?: string;
}

/**
 * `<prefix>v2:<op>:<digest>`: the digest is SHA-256 (base64url, 43 characters) of the sources,
 * the datum and the normalised parameters, so every key of an operation has one size however
 * long the parameters (a 255-character address made a key of over 2 KB), and no part can pass
 * for two (the parts are hashed as a JSON array).
 */
export function lookupKey(ctx: KeyContext, operation: string, parts: readonly string[]): string {
  // One-shot `hash`: no Hash object per lookup (0.74 -> 0.33 us on the bench host).
  const digest = hash(
    'sha256',
    JSON.stringify(ctx.app === undefined ? [ctx.source, ctx.datum, ...parts] : [{ app: ctx.app }, ctx.source, ctx.datum, ...parts]),
    'base64url',
  );
  return `${ctx.prefix}v2:${operation}:${digest}`;
}

/**
 * The cache keys of recent lookups by their raw parameters, so that a lookup asked again (which
 * is what a cache hit is) is not canonicalised, serialised and hashed again: those were a tenth
 * of a cached lbsQuery's CPU (docs/performance.md, "Direct routes"). `raw` must name the
 * operation and every raw input of the key (the caller joins validated values with a separator
 * they cannot hold). At most `max` entries: full, it is emptied and refilled, so a scan of
 * distinct parameters costs a bounded map and the hashing it would have cost anyway.
 */
export class RecentKeys {
  private readonly keys = new Map<string, string>();

  constructor(private readonly max = 4096) {}

  get(raw: string, make: () => string): string {
    let key = this.keys.get(raw);
    if (key === undefined) {
      key = make();
      if (this.keys.size >= this.max) this.keys.clear();
      this.keys.set(raw, key);
    }
    return key;
  }

  get size(): number {
    return this.keys.size;
  }
}
