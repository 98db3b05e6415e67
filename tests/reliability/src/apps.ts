import type { AppCredential } from '@geoaccount/signing';
import { TestAccountClient, TestLbsClient } from '@geoaccount/client/internal';

/**
 * The client apps registered with every service the suite starts. Their secrets and AES keys
 * are distinctive strings so that the log scan finds them if a service ever prints one.
 */
export const APP_A: Required<AppCredential> = {
  appToken: 'app-a1b2c3d4e5f60718',
  secret: 'rel-secret-a-5f1c0e9b7d3a4e21',
  aesKey: 'rel-aes-key-a-90c1d2',
  aesMode: 'gcm',
};

export const APP_B: Required<AppCredential> = {
  appToken: 'app-b0b0b0b0b0b0b0b0',
  secret: 'rel-secret-b-2e8d4c6a0f9b1357',
  aesKey: 'rel-aes-key-b-3f4e5d',
  aesMode: 'ecb',
};

/** Further apps, e.g. one per lane of the fuzzers. */
export const APP_C: Required<AppCredential> = {
  appToken: 'app-c3c3c3c3c3c3c3c3',
  secret: 'rel-secret-c-7a6b5c4d3e2f1a0b',
  aesKey: 'rel-aes-key-c-6a7b8c',
  aesMode: 'gcm',
};

export const APP_D: Required<AppCredential> = {
  appToken: 'app-d4d4d4d4d4d4d4d4',
  secret: 'rel-secret-d-0b1a2f3e4d5c6b7a',
  aesKey: 'rel-aes-key-d-1d2e3f',
  aesMode: 'ecb',
};

export const APPS = [APP_A, APP_B, APP_C, APP_D];

/** `APP_CREDENTIALS` for a child service. */
export function appCredentialsEnv(apps: AppCredential[] = APPS): string {
  return JSON.stringify(apps);
}

export function accountClient(baseUrl: string, app: AppCredential = APP_A, options: { nonce?: boolean } = {}): TestAccountClient {
  return new TestAccountClient({
    retries: 0,
    baseUrl,
    appToken: app.appToken,
    secret: app.secret,
    aesKey: app.aesKey,
    aesMode: app.aesMode,
    nonce: options.nonce,
  });
}

export function lbsClient(baseUrl: string, app: AppCredential = APP_A): TestLbsClient {
  return new TestLbsClient({ retries: 0, baseUrl, appToken: app.appToken, secret: app.secret });
}

/** Every secret the suite hands to a service, by name (for the log scan). */
export function appSecrets(): { name: string; value: string }[] {
  return APPS.flatMap((a, i) => {
    const app = 'ABCD'[i];
    return [
      { name: `secret of app ${app}`, value: a.secret },
      { name: `AES key of app ${app}`, value: a.aesKey },
    ];
  });
}
