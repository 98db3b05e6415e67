import { type AppCredential, AppRegistry, CredentialsError, loadAppCredentials } from './credentials';
import { DEMO_APP } from './portable';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('refuses, with NODE_ENV=production, the demo token and secret and the example file, naming them', () => {
    const example = readFileSync(join(__dirname, '../../../docker/app-credentials.example.json'), 'utf8');
    const production = (text: string) => () => loadAppCredentials({ NODE_ENV: 'production', APP_CREDENTIALS: text });
    expect(production(example)).toThrow('APP_CREDENTIALS[0].appToken: the demo app token app-7f3a9c2e41d08b56 is public; not with NODE_ENV=production');
    const exampleSecret = JSON.parse(example) as Record<string, string>[];
    expect(production(JSON.stringify([{ ...exampleSecret[0], appToken: 'app-0a1b' }]))).toThrow(
      'APP_CREDENTIALS[0].secret: the example\'s placeholder "change-me-…"; not with NODE_ENV=production',
    );
    expect(production(JSON.stringify([APP, { ...APP, appToken: 'app-0c', secret: 'demo-secret-0123456789abcdef' }]))).toThrow(
      'APP_CREDENTIALS[1].secret: the demo secret is public',
    );
    expect(production(JSON.stringify([{ ...APP, aesKey: 'change-me-too' }]))).toThrow('APP_CREDENTIALS[0].aesKey');
    // Outside production, the example and the demo app are fine (local runs, tests).
    expect(loadAppCredentials({ APP_CREDENTIALS: example }).apps).toHaveLength(1);
    expect(production(JSON.stringify([APP]))()).toMatchObject({ demo: false });
  });

  it('derives the keys once per app', () => {
    const registry = new AppRegistry([APP]);
    const app = registry.get('app-0123abcd');
    expect(app?.aesMode).toBe('ecb');
    expect(app?.aesKey.symmetricKeySize).toBe(16);
    expect(registry.get('app-unknown')).toBeUndefined();
    expect(registry.get(['app-0123abcd'])).toBeUndefined();
  });
});
