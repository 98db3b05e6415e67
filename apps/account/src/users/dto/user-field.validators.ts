import { ValidateBy, type ValidationOptions } from 'class-validator';

export const USER_TYPES = ['C', 'B'] as const;
export const DOMAIN_FLAGS = ['0', '1'] as const;
/** `cert_type` values; empty sets the field empty. */
export const CERT_TYPES = ['00', '10', '11', ''] as const;

/** Deepest nesting of objects and arrays in `user_extends` (the outer object is level 1). */
export const USER_EXTENDS_MAX_DEPTH = 32;

/**
 * The text of a JSON object (`''` sets the field empty) that means one thing to every reader:
 * no key twice in one object (JSON.parse keeps the last, other parsers the first), only finite
 * numbers (`1e999999` is Infinity to JSON.parse), at most `USER_EXTENDS_MAX_DEPTH` levels.
 */
export function IsJsonObjectText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isJsonObjectText',
      validator: { validate: (value: unknown) => typeof value === 'string' && (value === '' || isJsonObjectText(value)) },
    },
    options,
  );
}

/** Whether `text` is a JSON object without duplicate keys or non-finite numbers, at most `maxDepth` levels deep. */
export function isJsonObjectText(text: string, maxDepth = USER_EXTENDS_MAX_DEPTH): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && isUnambiguousJson(text, maxDepth);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index of the quote that closes the JSON string opening at `start` (one not escaped by an odd run of backslashes). */
function closingQuote(json: string, start: number): number {
  for (let from = start + 1; ; ) {
    const quote = json.indexOf('"', from);
    let before = quote - 1;
    while (json.charCodeAt(before) === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Whether `c` can continue a JSON number (`0-9 . e E + -`). */
function inNumber(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/**
 * One pass over `json`, text that JSON.parse accepted, for what JSON.parse does not report:
 * a key repeated in one object (compared as decoded, so `"a"` and `"\u0061"` are one key), a
 * number that is not finite, nesting deeper than `maxDepth`.
 */
function isUnambiguousJson(json: string, maxDepth: number): boolean {
  /** Per open container, outermost first: the keys of an object so far, `null` for an array. */
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(json, i);
      const keys = open[open.length - 1];
      if (expectKey && keys) {
        const raw = json.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (keys.has(key)) return false;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      // { [
      if (open.length === maxDepth) return false;
      open.push(c === 0x7b ? new Set() : null);
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      // } ]
      open.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      // , : a key follows in an object
      expectKey = open[open.length - 1] !== null;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      while (i + 1 < json.length && inNumber(json.charCodeAt(i + 1))) i++;
      if (!Number.isFinite(Number(json.slice(start, i + 1)))) return false;
    }
  }
  return true;
}
