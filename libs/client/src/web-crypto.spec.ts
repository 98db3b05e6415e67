import { deriveAesKey, encryptPassword, hmacSha256Hex, importHmacKey, toHex } from './web-crypto';

// docs/contract.md §4 vectors, computed with Web Crypto (and @noble/ciphers for ECB) as in a browser.
describe('web crypto (docs/contract.md §4)', () => {
  it('derives the Java SHA1PRNG key of an AES key string', async () => {
    expect(toHex(await deriveAesKey('demo-aes-key'))).toBe('e990168d81cd7024a5c558f5b1958af1');
  });

  it('encrypts the vector password in ECB and in GCM with the vector IV', async () => {
    const key = await deriveAesKey('demo-aes-key');
    expect(await encryptPassword('P@ssw0rd!', key, 'ecb')).toBe('tIUifL24Xuz4qLZ0+gao8Q==');
    const iv = Uint8Array.from({ length: 12 }, (_, i) => i);
    expect(await encryptPassword('P@ssw0rd!', key, 'gcm', iv)).toBe('AAECAwQFBgcICQoLodudkL+bnJ2NuCTRTUL6EF1cG6U6+ugn6g==');
  });

  it('uses a fresh IV for every GCM encryption', async () => {
    const key = await deriveAesKey('demo-aes-key');
    const a = await encryptPassword('P@ssw0rd!', key, 'gcm');
    const b = await encryptPassword('P@ssw0rd!', key, 'gcm');
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64')).toHaveLength(12 + 9 + 16);
  });

  it('signs with HMAC-SHA256 as Node does', async () => {
    const key = await importHmacKey('demo-secret-0123456789abcdef');
    // RFC 4231-style check against node:crypto on the same input
    const { createHmac } = await import('node:crypto');
    const message = 'addressQuery:长安街1号::北京市:M001:';
    expect(await hmacSha256Hex(key, message)).toBe(createHmac('sha256', 'demo-secret-0123456789abcdef').update(message).digest('hex'));
  });
});
