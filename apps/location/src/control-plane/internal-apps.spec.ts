import { InternalAppsFormatError, parseExpireTime, parseInternalApps } from './internal-apps';

const CRED = { credential_id: 'c1', secret: 'secret-of-16-chars!', aes_key: 'aes', expire_time: '' };
const APP = { app_token: 'app-0123456789abcdef0123456789abcdef', aes_mode: 'ecb', credentials: [CRED] };

describe('the answer of GET /internal/v1/apps', () => {
  it('reads the apps and their credentials', () => {
    const second = { ...CRED, credential_id: 'c2', expire_time: '2030-01-02 03:04:05' };
    expect(parseInternalApps({ app_list: [{ ...APP, credentials: [CRED, second] }] })).toEqual({
      apps: [
        {
          appToken: APP.app_token,
          aesMode: 'ecb',
          credentials: [
            { credentialId: 'c1', secret: CRED.secret, aesKey: 'aes', expiresAt: undefined },
            { credentialId: 'c2', secret: CRED.secret, aesKey: 'aes', expiresAt: Date.UTC(2030, 0, 2, 3, 4, 5) },
          ],
        },
      ],
      skipped: [],
    });
  });

  it.each([[null], ['[]'], [[]], [{}], [{ app_list: 'x' }]])('refuses the answer %j as a whole', (body) => {
    expect(() => parseInternalApps(body)).toThrow(InternalAppsFormatError);
  });

  it('leaves out a malformed app or credential, naming it but never its secret', () => {
    const answer = parseInternalApps({
      app_list: [
        APP,
        { ...APP, app_token: 'not-an-app' },
        { ...APP, app_token: 'app-01', aes_mode: 'cbc' },
        { ...APP, app_token: 'app-02', credentials: 'none' },
        { ...APP, app_token: 'app-03', credentials: [{ ...CRED, secret: 'short' }] },
        {
          ...APP,
          app_token: 'app-04',
          credentials: [
            { ...CRED, expire_time: 'tomorrow' },
            { ...CRED, credential_id: '' },
            { ...CRED, aes_key: '' },
          ],
        },
        APP,
      ],
    });
    expect(answer.apps.map((a) => a.appToken)).toEqual([APP.app_token]);
    expect(answer.skipped).toEqual([
      'app_list[1]: no valid app_token',
      'app-01: aes_mode is not gcm or ecb',
      'app-02: no credentials array',
      'app-03 credentials[0] c1: secret missing or shorter than 16 characters',
      'app-04 credentials[0] c1: expire_time is not a time',
      'app-04 credentials[1]: no valid credential_id',
      'app-04 credentials[2] c1: aes_key missing',
      `${APP.app_token}: listed twice`,
    ]);
    expect(JSON.stringify(answer.skipped)).not.toContain(CRED.secret);
  });

  it('takes gcm when aes_mode is absent', () => {
    expect(parseInternalApps({ app_list: [{ app_token: 'app-0a', credentials: [CRED] }] }).apps[0]?.aesMode).toBe('gcm');
  });

  it.each([
    ['', undefined],
    [undefined, undefined],
    ['2030-01-02 03:04:05', Date.UTC(2030, 0, 2, 3, 4, 5)],
    ['2030-01-02 03:04:05.250', Date.UTC(2030, 0, 2, 3, 4, 5, 250)],
    ['2030-01-02T03:04:05Z', Date.UTC(2030, 0, 2, 3, 4, 5)],
    ['2030-01-02T11:04:05+08:00', Date.UTC(2030, 0, 2, 3, 4, 5)],
    ['2025-02-30 00:00:00', Number.NaN],
    ['2030-01-02T03:04:05', Number.NaN],
    ['soon', Number.NaN],
    [1234, Number.NaN],
  ])('reads the expire_time %j', (text, expected) => {
    expect(parseExpireTime(text)).toEqual(expected);
  });
});
