import { signAccount, verifyAccount } from './account-signature';
import { accountPlaintext, rfc3986 } from './portable';
import { hmacKey } from './hmac';

// CONTRACT §2 test vector.
const SECRET = 'demo-secret-0123456789abcdef';
const APP = 'app-7f3a9c2e41d08b56';
const FIELDS = {
  auth_name: 'Orders',
  auth_desc: '',
  auth_state: '1',
  auth_level: '2',
  parent_auth_id: '',
  sub_auth_flag: '0',
  timestamp: '1767225600',
  auth_id: 'A100',
};
const PLAINTEXT =
  'PUTapp-7f3a9c2e41d08b56auth_desc=&auth_id=A100&auth_level=2&auth_name=Orders&auth_state=1&parent_auth_id=&sub_auth_flag=0&timestamp=1767225600';
const SIGNATURE = '3a61aeb79bc6a8751fb90daf846ea9fb735efa3e8d55c61a2ebb7f8963ac7604';

describe('account signature (CONTRACT §2)', () => {
  it('builds the vector plaintext', () => {
    expect(accountPlaintext('put', APP, FIELDS)).toBe(PLAINTEXT);
  });

  it('signs the vector', () => {
    expect(signAccount(SECRET, 'PUT', APP, FIELDS)).toBe(SIGNATURE);
    expect(signAccount(hmacKey(SECRET), 'PUT', APP, FIELDS)).toBe(SIGNATURE);
  });

  it('verifies lower- and upper-case hex', () => {
    expect(verifyAccount(hmacKey(SECRET), 'PUT', APP, FIELDS, SIGNATURE)).toBe(true);
    expect(verifyAccount(hmacKey(SECRET), 'PUT', APP, FIELDS, SIGNATURE.toUpperCase())).toBe(true);
  });

  it('refuses any change of one byte of the vector', () => {
    const flipped = SIGNATURE.slice(0, -1) + (SIGNATURE.endsWith('4') ? '5' : '4');
    expect(verifyAccount(SECRET, 'PUT', APP, FIELDS, flipped)).toBe(false);
    expect(verifyAccount(SECRET, 'PUT', APP, { ...FIELDS, auth_id: 'A101' }, SIGNATURE)).toBe(false);
    expect(verifyAccount(SECRET, 'POST', APP, FIELDS, SIGNATURE)).toBe(false);
    expect(verifyAccount('demo-secret-0123456789abcdeF', 'PUT', APP, FIELDS, SIGNATURE)).toBe(false);
    expect(verifyAccount(SECRET, 'PUT', 'app-7f3a9c2e41d08b57', FIELDS, SIGNATURE)).toBe(false);
  });

  it('refuses malformed signatures', () => {
    for (const bad of [undefined, '', 'zz', SIGNATURE.slice(1), `${SIGNATURE}0`, ['a'], 42]) {
      expect(verifyAccount(SECRET, 'PUT', APP, FIELDS, bad)).toBe(false);
    }
  });

  it('ignores app_token and signature fields', () => {
    expect(accountPlaintext('PUT', APP, { ...FIELDS, app_token: APP, signature: SIGNATURE })).toBe(PLAINTEXT);
  });

  it('percent-encodes per RFC 3986 so one value cannot pass for two parameters', () => {
    expect(rfc3986("a=1&b=2 ~-._!*'()é")).toBe('a%3D1%26b%3D2%20~-._%21%2A%27%28%29%C3%A9');
    expect(accountPlaintext('GET', APP, { a: '1&b=2' })).not.toBe(accountPlaintext('GET', APP, { a: '1', b: '2' }));
  });

  it('sorts names byte-wise (upper case before lower case)', () => {
    expect(accountPlaintext('GET', 'x', { b: '1', B: '2', a_: '3', a: '4' })).toBe('GETxB=2&a=4&a_=3&b=1');
  });
});
