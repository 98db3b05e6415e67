import { decryptPassword, deriveAesKey, encryptPassword } from './login-crypto';

// docs/contract.md §4 vectors.
const KEY = deriveAesKey('demo-aes-key');
const IV = Buffer.from('000102030405060708090a0b', 'hex');

describe('login password encryption (docs/contract.md §4)', () => {
  it('derives the Java SHA1PRNG key', () => {
    expect(KEY.toString('hex')).toBe('e990168d81cd7024a5c558f5b1958af1');
  });

  it('encrypts the ecb vector', () => {
    expect(encryptPassword('P@ssw0rd!', KEY, 'ecb')).toBe('tIUifL24Xuz4qLZ0+gao8Q==');
    expect(decryptPassword('tIUifL24Xuz4qLZ0+gao8Q==', KEY, 'ecb')).toBe('P@ssw0rd!');
  });

  it('encrypts the gcm vector', () => {
    const vector = 'AAECAwQFBgcICQoLodudkL+bnJ2NuCTRTUL6EF1cG6U6+ugn6g==';
    expect(encryptPassword('P@ssw0rd!', KEY, 'gcm', IV)).toBe(vector);
    expect(decryptPassword(vector, KEY, 'gcm')).toBe('P@ssw0rd!');
  });

  it('uses a fresh IV for every gcm encryption', () => {
    const a = encryptPassword('same', KEY, 'gcm');
    const b = encryptPassword('same', KEY, 'gcm');
    expect(a).not.toBe(b);
    expect(decryptPassword(a, KEY, 'gcm')).toBe('same');
  });

  it('refuses undecodable or tampered input', () => {
    const vector = 'AAECAwQFBgcICQoLodudkL+bnJ2NuCTRTUL6EF1cG6U6+ugn6g==';
    const tampered = `${vector.slice(0, 20)}${vector[20] === 'A' ? 'B' : 'A'}${vector.slice(21)}`;
    for (const bad of ['', 'not base64!', 'abc', tampered, 'AAAA', 'tIUifL24Xuz4qLZ0+gao8Q']) {
      expect(decryptPassword(bad, KEY, 'gcm')).toBeUndefined();
    }
    expect(decryptPassword('tIUifL24Xuz4qLZ0+gao8Q==', deriveAesKey('other'), 'ecb')).toBeUndefined();
    expect(decryptPassword('AAAA', KEY, 'ecb')).toBeUndefined();
  });
});
