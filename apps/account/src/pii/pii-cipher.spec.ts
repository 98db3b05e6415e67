import { randomBytes } from 'node:crypto';
import { PiiCipher, PiiDecryptError, keyIdOf, maskPii } from './pii-cipher';
import { loadPiiKeys } from './pii-keys';

const key = (id: string) => ({ id, key: randomBytes(32) });

describe('PiiCipher', () => {
  const k1 = key('k1');
  const k2 = key('k2');
  const cipher = new PiiCipher([k1]);

  it('round-trips a value, with a fresh IV each time, under the first key', () => {
    const a = cipher.encrypt('app', 'alice', 'cert_id', '110101199003071234');
    const b = cipher.encrypt('app', 'alice', 'cert_id', '110101199003071234');
    expect(a).toMatch(/^v1:k1:[A-Za-z0-9+/]+=*$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('1234');
    expect(cipher.decrypt('app', 'alice', 'cert_id', a)).toBe('110101199003071234');
    expect(cipher.decrypt('app', 'alice', 'cert_id', cipher.encrypt('app', 'alice', 'cert_id', 'Ünïcødé 证件 🚀'))).toBe('Ünïcødé 证件 🚀');
  });

  it('refuses a value moved to another app, login id or field', () => {
    const stored = cipher.encrypt('app', 'alice', 'user_mobile', '13912345678');
    expect(() => cipher.decrypt('app', 'bob', 'user_mobile', stored)).toThrow(PiiDecryptError);
    expect(() => cipher.decrypt('other', 'alice', 'user_mobile', stored)).toThrow(PiiDecryptError);
    expect(() => cipher.decrypt('app', 'alice', 'cert_id', stored)).toThrow(PiiDecryptError);
  });

  it('decrypts with any key of the ring, refuses a removed key, and names it stale', () => {
    const old = cipher.encrypt('app', 'alice', 'cert_id', 'C-1');
    const rotated = new PiiCipher([k2, k1]);
    expect(rotated.decrypt('app', 'alice', 'cert_id', old)).toBe('C-1');
    expect(rotated.isStale(old)).toBe(true);
    expect(rotated.isStale(rotated.encrypt('app', 'alice', 'cert_id', 'C-1'))).toBe(false);
    expect(keyIdOf(rotated.encrypt('app', 'alice', 'cert_id', 'C-1'))).toBe('k2');
    expect(() => new PiiCipher([k2]).decrypt('app', 'alice', 'cert_id', old)).toThrow(/key k1 is not in PII_KEYS/);
  });

  it('keeps null and empty as they are, and reads a value written before encryption as stored', () => {
    expect(cipher.encrypt('app', 'alice', 'cert_id', null)).toBeNull();
    expect(cipher.encrypt('app', 'alice', 'cert_id', '')).toBe('');
    expect(cipher.decrypt('app', 'alice', 'cert_id', '13900000000')).toBe('13900000000');
    expect(cipher.isStale('13900000000')).toBe(true);
  });

  it('masks every character but the last four', () => {
    expect(maskPii('13912345678')).toBe('*******5678');
    expect(maskPii('证件号码12')).toBe('**号码12');
    expect(maskPii('123')).toBe('123');
    expect(maskPii('')).toBe('');
  });
});

describe('loadPiiKeys', () => {
  const b64 = randomBytes(32).toString('base64');

  it('reads the ring, first key first', () => {
    const ring = loadPiiKeys({
      PII_KEYS: JSON.stringify([
        { id: 'k2', key: b64 },
        { id: 'k1', key: randomBytes(32).toString('base64') },
      ]),
    });
    expect(ring.keys.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(ring.keys[0]!.key.toString('base64')).toBe(b64);
    expect(ring.warning).toBeUndefined();
  });

  it('refuses to start in production without keys, warns and uses the development key elsewhere', () => {
    expect(() => loadPiiKeys({ NODE_ENV: 'production' })).toThrow(/PII_KEYS or PII_KEYS_FILE is required/);
    const dev = loadPiiKeys({});
    expect(dev.keys.map((k) => k.id)).toEqual(['dev']);
    expect(dev.warning).toMatch(/development key/);
  });

  it('refuses a malformed ring without echoing key material', () => {
    const short = randomBytes(16).toString('base64');
    for (const bad of [
      'not json',
      '[]',
      JSON.stringify([{ id: 'k1', key: short }]),
      JSON.stringify([{ id: 'bad id', key: b64 }]),
      JSON.stringify([
        { id: 'k1', key: b64 },
        { id: 'k1', key: b64 },
      ]),
    ]) {
      let message = '';
      try {
        loadPiiKeys({ PII_KEYS: bad, NODE_ENV: 'production' });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^PII_KEYS/);
      expect(message).not.toContain(b64);
      expect(message).not.toContain(short);
    }
  });
});
