import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { hmacKey } from './hmac';
import { aesKeyObject } from './login-crypto';
import { type AesMode, DEMO_APP } from './portable';

/** One calling application, as configured in `APP_CREDENTIALS` (CONTRACT §1). */
export interface AppCredential {
  appToken: string;
  secret: string;
  aesKey: string;
  aesMode?: AesMode;
}

/** An app ready for use on the hot path: keys derived once at start. */
export interface RegisteredApp {
  readonly appToken: string;
  readonly hmacKey: KeyObject;
  readonly aesKey: KeyObject;
  readonly aesMode: AesMode;
}

export const APP_TOKEN_PATTERN = /^app-[0-9a-fA-F]{1,36}$/;

export class CredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialsError';
  }
}

function validate(raw: unknown, where: string): AppCredential[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new CredentialsError(`${where}: expected a non-empty JSON array of apps`);
  const seen = new Set<string>();
  return raw.map((item: unknown, i) => {
    const at = `${where}[${i}]`;
    if (typeof item !== 'object' || item === null) throw new CredentialsError(`${at}: expected an object`);
    const { appToken, secret, aesKey, aesMode = 'gcm' } = item as Record<string, unknown>;
    if (typeof appToken !== 'string' || !APP_TOKEN_PATTERN.test(appToken)) {
      throw new CredentialsError(`${at}.appToken: expected "app-" followed by hex, at most 40 characters`);
    }
    if (seen.has(appToken)) throw new CredentialsError(`${at}.appToken: duplicated`);
    seen.add(appToken);
    if (typeof secret !== 'string' || secret.length < 16) throw new CredentialsError(`${at}.secret: expected at least 16 characters`);
    if (typeof aesKey !== 'string' || aesKey.length === 0) throw new CredentialsError(`${at}.aesKey: expected a non-empty string`);
    if (aesMode !== 'gcm' && aesMode !== 'ecb') throw new CredentialsError(`${at}.aesMode: expected "gcm" or "ecb"`);
    return { appToken, secret, aesKey, aesMode };
  });
}

/**
 * Reads the apps from `APP_CREDENTIALS` (inline JSON) or `APP_CREDENTIALS_FILE`.
 * Unset: the demo app, except with `NODE_ENV=production`, where that is an error.
 */
export function loadAppCredentials(env: NodeJS.ProcessEnv = process.env): { apps: AppCredential[]; demo: boolean } {
  const inline = env.APP_CREDENTIALS;
  const file = env.APP_CREDENTIALS_FILE;
  if (inline && file) throw new CredentialsError('APP_CREDENTIALS and APP_CREDENTIALS_FILE are both set; use one');
  let text: string | undefined = inline;
  let where = 'APP_CREDENTIALS';
  if (file) {
    where = 'APP_CREDENTIALS_FILE';
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new CredentialsError(`APP_CREDENTIALS_FILE: cannot read ${file} (${(err as Error).message})`);
    }
  }
  if (text === undefined || text.trim() === '') {
    if (env.NODE_ENV === 'production') {
      throw new CredentialsError('APP_CREDENTIALS: required when NODE_ENV=production (or set APP_CREDENTIALS_FILE)');
    }
    return { apps: [{ ...DEMO_APP }], demo: true };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CredentialsError(`${where}: not valid JSON`);
  }
  const apps = validate(parsed, where);
  if (env.NODE_ENV === 'production') refusePublicCredentials(apps, where);
  return { apps, demo: false };
}

/** The placeholder values of docker/app-credentials.example.json start with this. */
const EXAMPLE_PLACEHOLDER = 'change-me';

/**
 * With `NODE_ENV=production`, credentials anybody can read are refused, naming them: the demo
 * app's token and secret (printed by `pnpm start`, in the docs) and the example file's
 * `change-me-…` placeholders.
 */
export function refusePublicCredentials(apps: readonly AppCredential[], where: string): void {
  apps.forEach((app, i) => {
    const at = `${where}[${i}]`;
    if (app.appToken === DEMO_APP.appToken) {
      throw new CredentialsError(`${at}.appToken: the demo app token ${DEMO_APP.appToken} is public; not with NODE_ENV=production`);
    }
    if (app.secret === DEMO_APP.secret) throw new CredentialsError(`${at}.secret: the demo secret is public; not with NODE_ENV=production`);
    if (app.secret.startsWith(EXAMPLE_PLACEHOLDER)) {
      throw new CredentialsError(`${at}.secret: the example's placeholder "${EXAMPLE_PLACEHOLDER}-…"; not with NODE_ENV=production`);
    }
    if (app.aesKey?.startsWith(EXAMPLE_PLACEHOLDER)) {
      throw new CredentialsError(`${at}.aesKey: the example's placeholder "${EXAMPLE_PLACEHOLDER}-…"; not with NODE_ENV=production`);
    }
  });
}

/** The configured apps by token, with their keys derived once. */
export class AppRegistry {
  private readonly apps = new Map<string, RegisteredApp>();

  constructor(
    credentials: readonly AppCredential[],
    readonly demo = false,
  ) {
    for (const c of credentials) {
      this.apps.set(c.appToken, {
        appToken: c.appToken,
        hmacKey: hmacKey(c.secret),
        aesKey: aesKeyObject(c.aesKey),
        aesMode: c.aesMode ?? 'gcm',
      });
    }
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): AppRegistry {
    const { apps, demo } = loadAppCredentials(env);
    return new AppRegistry(apps, demo);
  }

  get(appToken: unknown): RegisteredApp | undefined {
    return typeof appToken === 'string' ? this.apps.get(appToken) : undefined;
  }

  get size(): number {
    return this.apps.size;
  }
}

/** DI token of the `AppRegistry`. */
export const APP_REGISTRY = Symbol('APP_REGISTRY');
