import { signAccount, verifyAccount } from './account-signature';
import { requestPath } from './account-signature.guard';
import { accountPlaintext, canonicalPath, rfc3986 } from './portable';
import { hmacKey } from './hmac';

// docs/contract.md §2 test vectors.
const SECRET = 'demo-secret-0123456789abcdef';
const APP = 'app-7f3a9c2e41d08b56';
const PUT_PATH = '/account/v1.0.1/auths/A100';
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
  'PUTapp-7f3a9c2e41d08b56/account/v1.0.1/auths/A100?auth_desc=&auth_id=A100&auth_level=2&auth_name=Orders&auth_state=1&parent_auth_id=&sub_auth_flag=0&timestamp=1767225600';
const SIGNATURE = '0a4c5b0907a29a12967849d76db12d559ffd473a6253fd94391afbed54674af9';

const GET_PARAMS = { timestamp: '1767225600', user_login_id: '张三' };
const GET_PLAINTEXT =
  'GETapp-7f3a9c2e41d08b56/account/v1.0.1/users/%E5%BC%A0%E4%B8%89/auths?timestamp=1767225600&user_login_id=%E5%BC%A0%E4%B8%89';
const GET_SIGNATURE = '3b36d71297f0071ba8395d3220b66c5836dcf67ae3b0ee4ace1c42207ec2f582';

describe('account signature (docs/contract.md §2)', () => {
  it('builds the PUT vector plaintext', () => {
    expect(accountPlaintext('put', APP, PUT_PATH, FIELDS)).toBe(PLAINTEXT);
  });

  it('signs the PUT vector', () => {
    expect(signAccount(SECRET, 'PUT', APP, PUT_PATH, FIELDS)).toBe(SIGNATURE);
    expect(signAccount(hmacKey(SECRET), 'PUT', APP, PUT_PATH, FIELDS)).toBe(SIGNATURE);
  });

  it('builds and signs the GET vector, whatever the spelling of the path on the wire', () => {
    for (const path of [
      '/account/v1.0.1/users/%E5%BC%A0%E4%B8%89/auths',
      '/account/v1.0.1/users/%e5%bc%a0%e4%b8%89/auths',
      '/account/v1.0.1/users/张三/auths',
      '/account/v1.0.1/users/%E5%BC%A0%E4%B8%89/auths?timestamp=1767225600',
    ]) {
      expect(accountPlaintext('GET', APP, path, GET_PARAMS)).toBe(GET_PLAINTEXT);
      expect(signAccount(SECRET, 'GET', APP, path, GET_PARAMS)).toBe(GET_SIGNATURE);
    }
  });

  it('verifies lower- and upper-case hex', () => {
    expect(verifyAccount(hmacKey(SECRET), 'PUT', APP, PUT_PATH, FIELDS, SIGNATURE)).toBe(true);
    expect(verifyAccount(hmacKey(SECRET), 'PUT', APP, PUT_PATH, FIELDS, SIGNATURE.toUpperCase())).toBe(true);
  });

  it('refuses any change of one byte of the vector', () => {
    const flipped = SIGNATURE.slice(0, -1) + (SIGNATURE.endsWith('4') ? '5' : '4');
    expect(verifyAccount(SECRET, 'PUT', APP, PUT_PATH, FIELDS, flipped)).toBe(false);
    expect(verifyAccount(SECRET, 'PUT', APP, PUT_PATH, { ...FIELDS, auth_id: 'A101' }, SIGNATURE)).toBe(false);
    expect(verifyAccount(SECRET, 'POST', APP, PUT_PATH, FIELDS, SIGNATURE)).toBe(false);
    expect(verifyAccount('demo-secret-0123456789abcdeF', 'PUT', APP, PUT_PATH, FIELDS, SIGNATURE)).toBe(false);
    expect(verifyAccount(SECRET, 'PUT', 'app-7f3a9c2e41d08b57', PUT_PATH, FIELDS, SIGNATURE)).toBe(false);
  });

  it('binds the signature to the route: the same parameters on another path do not verify', () => {
    const params = { timestamp: '1767225600' };
    const auths = signAccount(SECRET, 'GET', APP, '/account/v1.0.1/auths', params);
    for (const other of ['/account/v1.0.1/authgroups', '/account/v1.0.1/users', '/account/v1.0.1/auths/', '/account/v1.0.1/AUTHS']) {
      expect(verifyAccount(SECRET, 'GET', APP, other, params, auths)).toBe(false);
    }
    const user = { timestamp: '1767225600', user_login_id: 'alice' };
    const alice = signAccount(SECRET, 'GET', APP, '/account/v1.0.1/users/alice', user);
    expect(verifyAccount(SECRET, 'GET', APP, '/account/v1.0.1/users/alice/auths', user, alice)).toBe(false);
    expect(verifyAccount(SECRET, 'GET', APP, '/account/v1.0.1/users/alice', user, alice)).toBe(true);
  });

  it('refuses malformed signatures', () => {
    for (const bad of [undefined, '', 'zz', SIGNATURE.slice(1), `${SIGNATURE}0`, ['a'], 42]) {
      expect(verifyAccount(SECRET, 'PUT', APP, PUT_PATH, FIELDS, bad)).toBe(false);
    }
  });

  it('ignores app_token and signature fields', () => {
    expect(accountPlaintext('PUT', APP, PUT_PATH, { ...FIELDS, app_token: APP, signature: SIGNATURE })).toBe(PLAINTEXT);
  });

  it('percent-encodes per RFC 3986 so one value cannot pass for two parameters', () => {
    expect(rfc3986("a=1&b=2 ~-._!*'()é")).toBe('a%3D1%26b%3D2%20~-._%21%2A%27%28%29%C3%A9');
    expect(accountPlaintext('GET', APP, '/', { a: '1&b=2' })).not.toBe(accountPlaintext('GET', APP, '/', { a: '1', b: '2' }));
  });

  it('sorts names byte-wise (upper case before lower case)', () => {
    expect(accountPlaintext('GET', 'x', '/p', { b: '1', B: '2', a_: '3', a: '4' })).toBe('GETx/p?B=2&a=4&a_=3&b=1');
  });

  it('writes an empty parameter list as a bare "?"', () => {
    expect(accountPlaintext('GET', 'x', '/p', {})).toBe('GETx/p?');
  });
});

describe('canonicalPath', () => {
  it('decodes then encodes each segment, keeping the slashes between them', () => {
    expect(canonicalPath('/account/v1.0.1/users/a%2Fb/auths')).toBe('/account/v1.0.1/users/a%2Fb/auths');
    expect(canonicalPath('/account/v1.0.1/users/a b+c~')).toBe('/account/v1.0.1/users/a%20b%2Bc~');
    expect(canonicalPath('/account/v1.0.1/users/%61lice')).toBe('/account/v1.0.1/users/alice');
    expect(canonicalPath('/account/v1.0.1/users/o%27brien(1)')).toBe('/account/v1.0.1/users/o%27brien%281%29');
    expect(canonicalPath('/a//b/')).toBe('/a//b/');
  });

  it('drops the query string', () => {
    expect(canonicalPath('/account/v1.0.1/auths?auth_state=1&x=%2F')).toBe('/account/v1.0.1/auths');
  });

  it('throws on a malformed escape', () => {
    expect(() => canonicalPath('/account/v1.0.1/users/%zz')).toThrow(URIError);
  });
});

describe('requestPath', () => {
  it('takes the path of the request target as sent, without the query', () => {
    expect(requestPath({ originalUrl: '/account/v1.0.1/users/%E5%BC%A0/auths?timestamp=1', url: '/x' })).toBe(
      '/account/v1.0.1/users/%E5%BC%A0/auths',
    );
    expect(requestPath({ url: '/account/v1.0.1/auths' })).toBe('/account/v1.0.1/auths');
  });

  it('drops the scheme and authority of an absolute-form target', () => {
    expect(requestPath({ originalUrl: 'http://127.0.0.1:3001/account/v1.0.1/auths?a=1' })).toBe('/account/v1.0.1/auths');
    expect(requestPath({ originalUrl: 'http://127.0.0.1:3001' })).toBe('/');
  });
});
