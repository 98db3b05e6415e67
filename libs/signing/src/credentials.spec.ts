import { type AppCredential, AppRegistry, CredentialsError, liveCredentials, loadAppCredentials } from './credentials';
import { hmacSha256Hex } from './hmac';
import { DEMO_APP } from './portable';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const APP: AppCredential = { appToken: 'app-0123abcd', secret: 'a-secret-of-16-chars', aesKey: 'k', aesMode: 'ecb' };

describe('app credentials', () => {
  it('falls back to the demo app outside production', () => {
    expect(loadAppCredentials({})).toEqual({ apps: [{ ...DEMO_APP }], demo: true });
  });

  it('refuses to start without credentials in production', () => {
    expect(() => loadAppCredentials({ NODE_ENV: 'production' })).toThrow(/APP_CREDENTIALS: required/);
  });

  it('reads inline JSON and a file', () => {
    expect(loadAppCredentials({ APP_CREDENTIALS: JSON.stringify([APP]) }).apps).toEqual([APP]);
    const file = join(mkdtempSync(join(tmpdir(), 'creds-')), 'apps.json');
    writeFileSync(file, JSON.stringify([APP]));
    expect(loadAppCredentials({ APP_CREDENTIALS_FILE: file, NODE_ENV: 'production' })).toEqual({ apps: [APP], demo: false });
  });

  it.each([
    ['not json', /not valid JSON/],
    ['[]', /non-empty JSON array/],
    [JSON.stringify([{ ...APP, appToken: 'bad' }]), /appToken/],
    [JSON.stringify([{ ...APP, appToken: `app-${'a'.repeat(37)}` }]), /appToken/],
    [JSON.stringify([{ ...APP, secret: 'short' }]), /secret/],
    [JSON.stringify([{ ...APP, aesKey: '' }]), /aesKey/],
    [JSON.stringify([{ ...APP, aesMode: 'cbc' }]), /aesMode/],
    [JSON.stringify([APP, APP]), /duplicated/],
  ])('refuses %s', (text, message) => {
    expect(() => loadAppCredentials({ APP_CREDENTIALS: text })).toThrow(CredentialsError);
    expect(() => loadAppCredentials({ APP_CREDENTIALS: text })).toThrow(message);
  });

  it('derives the keys once per app', () => {
    const registry = new AppRegistry([APP]);
    const app = registry.get('app-0123abcd');
    expect(app?.aesMode).toBe('ecb');
    expect(app?.aesKey.symmetricKeySize).toBe(16);
    expect(registry.get('app-unknown')).toBeUndefined();
    expect(registry.get(['app-0123abcd'])).toBeUndefined();
  });

  it('starts a production service with no configured app when the control plane supplies them', () => {
    expect(loadAppCredentials({ NODE_ENV: 'production', APPS_URL: 'http://account:3001' }, { controlPlaneVariable: 'APPS_URL' })).toEqual({
      apps: [],
      demo: false,
    });
    expect(() => loadAppCredentials({ NODE_ENV: 'production' }, { controlPlaneVariable: 'APPS_URL' })).toThrow(/or APPS_URL/);
    // Another service's variable does not count.
    expect(() => loadAppCredentials({ NODE_ENV: 'production', APPS_URL: 'http://x' })).toThrow(/APP_CREDENTIALS: required/);
  });

  describe('control-plane apps', () => {
    const sign = (key: Parameters<typeof hmacSha256Hex>[0]) => hmacSha256Hex(key, 'message');
    const remote = (secret: string, expiresAt?: number) => ({ credentialId: `id-${secret}`, secret, aesKey: `aes-${secret}`, expiresAt });

    it('replaces them as a whole, configured apps kept and winning', () => {
      const registry = new AppRegistry([APP]);
      registry.replaceControlPlaneApps([
        { appToken: 'app-0b', aesMode: 'gcm', credentials: [remote('secret-one-0123456'), remote('secret-two-0123456')] },
        { appToken: APP.appToken, aesMode: 'gcm', credentials: [remote('secret-xxx-0123456')] },
      ]);
      expect(registry.size).toBe(2);
      expect(registry.configuredSize).toBe(1);
      const b = registry.get('app-0b');
      expect(b?.source).toBe('api');
      expect(b?.credentials.map((c) => sign(c.hmacKey))).toEqual([sign('secret-one-0123456'), sign('secret-two-0123456')]);
      expect(sign(b!.hmacKey)).toBe(sign('secret-one-0123456'));
      const a = registry.get(APP.appToken);
      expect(a?.source).toBe('config');
      expect(a?.credentials.map((c) => sign(c.hmacKey))).toEqual([sign(APP.secret)]);
      registry.replaceControlPlaneApps([]);
      expect(registry.get('app-0b')).toBeUndefined();
      expect(registry.get(APP.appToken)?.source).toBe('config');
    });

    it('derives a credential\'s keys once while its secret is unchanged', () => {
      const registry = new AppRegistry([]);
      const list = [{ appToken: 'app-0b', aesMode: 'gcm' as const, credentials: [remote('secret-one-0123456')] }];
      registry.replaceControlPlaneApps(list);
      const first = registry.get('app-0b')!.credentials[0]!.hmacKey;
      registry.replaceControlPlaneApps(list);
      expect(registry.get('app-0b')!.credentials[0]!.hmacKey).toBe(first);
    });

    it('leaves out an app without a credential', () => {
      const registry = new AppRegistry([]);
      registry.replaceControlPlaneApps([{ appToken: 'app-0b', aesMode: 'gcm', credentials: [] }]);
      expect(registry.get('app-0b')).toBeUndefined();
    });

    it('refuses a credential from its expiry on', () => {
      const registry = new AppRegistry([]);
      registry.replaceControlPlaneApps([{ appToken: 'app-0b', aesMode: 'gcm', credentials: [remote('secret-old-0123456', 1000), remote('secret-new-0123456')] }]);
      const app = registry.get('app-0b')!;
      expect(liveCredentials(app, 999).map((c) => c.credentialId)).toEqual(['id-secret-old-0123456', 'id-secret-new-0123456']);
      expect(liveCredentials(app, 1000).map((c) => c.credentialId)).toEqual(['id-secret-new-0123456']);
    });
  });
});
