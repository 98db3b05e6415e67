import { AppRegistry, CredentialUseLog, loadAppCredentials } from './credentials';
import { signAccount, verifyAccountCredential } from './account-signature';
import { DEMO_APP } from './portable';

const TOKEN = 'app-00112233445566778899aabbccddeeff';
const OLD = { credentialId: 'cred-old', secret: 'old-secret-0123456789', aesKey: 'old-aes' };
const NEW = { credentialId: 'cred-new', secret: 'new-secret-0123456789', aesKey: 'new-aes' };
const PARAMS = { timestamp: '1767225600' };
const PATH = '/account/v1.0.1/auths';

describe('control-plane credentials (docs/contract.md §14)', () => {
  it('verifies a signature against each active secret and answers the credential that matched', () => {
    const registry = new AppRegistry([]);
    registry.setManaged([{ appToken: TOKEN, aesMode: 'gcm', credentials: [OLD, NEW] }]);
    const candidates = registry.credentialsOf(TOKEN)!;
    expect(candidates).toHaveLength(2);
    for (const c of [OLD, NEW]) {
      const sig = signAccount(c.secret, 'GET', TOKEN, PATH, PARAMS);
      expect(verifyAccountCredential(candidates, 'GET', TOKEN, PATH, PARAMS, sig)?.credentialId).toBe(c.credentialId);
      expect(verifyAccountCredential(candidates, 'GET', TOKEN, PATH, PARAMS, sig.toUpperCase())?.credentialId).toBe(c.credentialId);
    }
    expect(verifyAccountCredential(candidates, 'GET', TOKEN, PATH, PARAMS, signAccount('another-secret-xyz', 'GET', TOKEN, PATH, PARAMS))).toBe(
      undefined,
    );
    expect(verifyAccountCredential(candidates, 'GET', TOKEN, PATH, PARAMS, 'zz')).toBe(undefined);
  });

  it('refuses an expired credential as if revoked', () => {
    const registry = new AppRegistry([]);
    const now = Date.now();
    registry.setManaged([{ appToken: TOKEN, aesMode: 'gcm', credentials: [{ ...OLD, expiresAt: now - 1 }, NEW] }]);
    const sig = signAccount(OLD.secret, 'GET', TOKEN, PATH, PARAMS);
    expect(verifyAccountCredential(registry.credentialsOf(TOKEN)!, 'GET', TOKEN, PATH, PARAMS, sig, now)).toBe(undefined);
    expect(verifyAccountCredential(registry.credentialsOf(TOKEN)!, 'GET', TOKEN, PATH, PARAMS, sig, now - 10)?.credentialId).toBe('cred-old');
    expect(registry.get(TOKEN, now)?.credentialId).toBe('cred-new');
  });

  it('keeps APP_CREDENTIALS apps over a control-plane app of the same token, and forgets removed apps', () => {
    const registry = new AppRegistry([DEMO_APP]);
    registry.setManaged([
      { appToken: DEMO_APP.appToken, aesMode: 'ecb', credentials: [OLD] },
      { appToken: TOKEN, aesMode: 'gcm', credentials: [NEW] },
    ]);
    expect(registry.credentialsOf(DEMO_APP.appToken)).toHaveLength(1);
    expect(registry.credentialsOf(DEMO_APP.appToken)![0]!.credentialId).toBe(undefined);
    expect(registry.isConfigured(DEMO_APP.appToken)).toBe(true);
    expect(registry.size).toBe(2);
    registry.setManaged([]);
    expect(registry.credentialsOf(TOKEN)).toBe(undefined);
    expect(registry.size).toBe(1);
  });

  it('derives a credential key once across refreshes', () => {
    const registry = new AppRegistry([]);
    registry.setManaged([{ appToken: TOKEN, aesMode: 'gcm', credentials: [OLD] }]);
    const first = registry.credentialsOf(TOKEN)![0]!.hmacKey;
    registry.setManaged([{ appToken: TOKEN, aesMode: 'gcm', credentials: [OLD, NEW] }]);
    expect(registry.credentialsOf(TOKEN)![0]!.hmacKey).toBe(first);
  });

  it('records the last use per credential to the minute, in memory', () => {
    const log = new CredentialUseLog();
    log.record('c1', 120_500);
    log.record('c1', 60_000);
    log.record('c2', 59_999);
    expect(log.drain()).toEqual([
      { credentialId: 'c1', minute: 120_000 },
      { credentialId: 'c2', minute: 0 },
    ]);
    expect(log.drain()).toEqual([]);
    log.restore([{ credentialId: 'c1', minute: 60_000 }]);
    log.record('c1', 180_001);
    expect(log.drain()).toEqual([{ credentialId: 'c1', minute: 180_000 }]);
  });

  it('starts in production without APP_CREDENTIALS when the control plane provides the apps', () => {
    expect(loadAppCredentials({ NODE_ENV: 'production', ADMIN_TOKEN: 'x'.repeat(32) })).toEqual({ apps: [], demo: false });
    expect(loadAppCredentials({ NODE_ENV: 'production', APPS_URL: 'http://account:3001' })).toEqual({ apps: [], demo: false });
    expect(() => loadAppCredentials({ NODE_ENV: 'production' })).toThrow(/APP_CREDENTIALS: required/);
  });
});
