import { rfc3986 } from './portable/canonical';

/** RFC 3986 encoding as it was written before the unreserved-only fast path. */
const encodedInFull = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

describe('rfc3986', () => {
  it('gives the full encoding for every character class, alone and mixed', () => {
    const samples = [
      '',
      'u0000001',
      'A-b.c_d~9',
      'a b',
      "!'()*",
      '张三',
      'a%2Fb',
      'x=y&z',
      '~',
      '-',
      'é',
      '\u0000',
      '😀',
      'ab/cd',
      'A'.repeat(200),
    ];
    for (const s of samples) expect([s, rfc3986(s)]).toEqual([s, encodedInFull(s)]);
  });

  it('agrees with the full encoding on random strings over ASCII and beyond', () => {
    const alphabet = "AZaz09-._~ !*'()%/?&=+#:@\u00e9\u4e2d";
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let i = 0; i < 5000; i++) {
      const n = next() % 12;
      let s = '';
      for (let j = 0; j < n; j++) s += alphabet[next() % alphabet.length];
      expect(rfc3986(s)).toBe(encodedInFull(s));
    }
  });
});
