import { RecentKeys, canonicalDegrees, canonicalDigits, canonicalText, formatDegrees, lookupKey } from './lookup-key';

describe('lookup keys', () => {
  it('writes coordinates with six decimals, one text per point', () => {
    expect(canonicalDegrees('116.397')).toBe('116.397000');
    expect(canonicalDegrees('+116.3970000')).toBe('116.397000');
    expect(canonicalDegrees('116.3970004')).toBe('116.397000');
    expect(canonicalDegrees('-0.0000001')).toBe('0.000000');
    expect(canonicalDegrees('.5')).toBe('0.500000');
    expect(formatDegrees(-74.006)).toBe('-74.006000');
  });

  it('normalises free text: NFKC, trimmed, inner blanks collapsed', () => {
    expect(canonicalText('  北京市 ')).toBe('北京市');
    expect(canonicalText('长安街１号')).toBe('长安街1号');
    expect(canonicalText('Fifth\t  Avenue\u3000 1')).toBe('Fifth Avenue 1');
  });

  it('drops leading zeros of identifiers', () => {
    expect(canonicalDigits('00460')).toBe('460');
    expect(canonicalDigits('0')).toBe('0');
    expect(canonicalDigits('000')).toBe('0');
  });

  it('builds keys from the operation, the sources, the datum and the parameters only', () => {
    const ctx = { prefix: 'lbs:', source: 'amap', datum: 'wgs84' };
    expect(lookupKey(ctx, 'lbsQuery', ['116.397000', '39.909000'])).toMatch(/^lbs:v2:lbsQuery:[\w-]{43}$/);
    expect(lookupKey(ctx, 'lbsQuery', ['116.397000', '39.909000'])).toBe(lookupKey({ ...ctx }, 'lbsQuery', ['116.397000', '39.909000']));
    expect(lookupKey({ ...ctx, source: 'offline' }, 'lbsQuery', ['1', '2'])).not.toBe(lookupKey(ctx, 'lbsQuery', ['1', '2']));
    // A part cannot pass for two.
    expect(lookupKey(ctx, 'addressQuery', ['a:b', 'c'])).not.toBe(lookupKey(ctx, 'addressQuery', ['a', 'b:c']));
    expect(lookupKey({ ...ctx, datum: 'gcj02' }, 'lbsQuery', ['1', '2'])).not.toBe(lookupKey(ctx, 'lbsQuery', ['1', '2']));
    expect(lookupKey(ctx, 'addressQuery', ['北京市'])).not.toBe(lookupKey(ctx, 'addressQuery', ['北京市', '']));
  });

  it('has one size whatever the length of the parameters', () => {
    const ctx = { prefix: 'lbs:', source: 'offline', datum: 'wgs84' };
    const short = lookupKey(ctx, 'addressQuery', ['杭州', 'x']);
    const long = lookupKey(ctx, 'addressQuery', ['杭州'.repeat(120), '长'.repeat(255)]);
    expect(long).toHaveLength(short.length);
    expect(Buffer.byteLength(long)).toBe('lbs:v2:addressQuery:'.length + 43);
  });
});

describe('lookupKey with CACHE_SCOPE=app', () => {
  const ctx = { prefix: 'lbs:', source: 'offline', datum: 'wgs84' };
  it('gives each app keys of its own, apart from the shared ones, of the same size', () => {
    const shared = lookupKey(ctx, 'lbsQuery', ['116.4', '39.9']);
    const a = lookupKey({ ...ctx, app: 'app-a' }, 'lbsQuery', ['116.4', '39.9']);
    const b = lookupKey({ ...ctx, app: 'app-b' }, 'lbsQuery', ['116.4', '39.9']);
    expect(new Set([shared, a, b]).size).toBe(3);
    expect(a.length).toBe(shared.length);
    expect(lookupKey({ ...ctx, app: 'app-a' }, 'lbsQuery', ['116.4', '39.9'])).toBe(a);
  });
});

describe('RecentKeys', () => {
  it('makes a key once per raw input, and stays within its bound', () => {
    const recent = new RecentKeys(3);
    let made = 0;
    const make = (raw: string) => () => `key(${raw}) #${++made}`;
    expect(recent.get('a', make('a'))).toBe('key(a) #1');
    expect(recent.get('a', make('a'))).toBe('key(a) #1');
    expect(recent.get('b', make('b'))).toBe('key(b) #2');
    recent.get('c', make('c'));
    expect(recent.size).toBe(3);
    // Full: emptied, then refilled.
    expect(recent.get('d', make('d'))).toBe('key(d) #4');
    expect(recent.size).toBe(1);
    expect(recent.get('a', make('a'))).toBe('key(a) #5');
  });
});
