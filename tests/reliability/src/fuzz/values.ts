import fc from 'fast-check';

/** Strings that have broken parsers before: SQL and JSON metacharacters, encodings, controls. */
export const NASTY = [
  '',
  ' ',
  "'",
  '"',
  "'; DROP TABLE auths; --",
  '1 OR 1=1',
  '%',
  '%00',
  '%ZZ',
  '%E0%A4',
  '\u0000',
  '\r\n',
  '\t',
  '\\',
  '{}',
  '{"a":1}',
  '{"a":',
  '[]',
  '[1,2]',
  'null',
  'true',
  '__proto__',
  'constructor',
  '𝄞',
  '中文名称',
  'e\u0301',
  '\u202e',
  '\ufeff',
  '\ud800',
  'a'.repeat(17),
  'a'.repeat(33),
  'a'.repeat(65),
  'a'.repeat(257),
  'a'.repeat(513),
  'a'.repeat(1025),
  '0',
  '1',
  '-1',
  '00',
  '10',
  '11',
  '99',
  '1e3',
  '0x10',
  '99999999999999999999',
  'C',
  'B',
  'c',
  ',',
  ',,',
  'a,b',
];

/** Lone surrogates become U+FFFD, as any UTF-8 transport makes them. */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** Any string a client could send: typical, nasty, unicode, binary, long. */
export const anyValue: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
    { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 30, maxLength: 1100 }) },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
  )
  .map(wellFormed);

/** A value drawn from a few well-formed ones (so that some requests get far), else any. */
export function plausible(...good: string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: anyValue });
}
