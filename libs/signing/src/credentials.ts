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

/**
 * One credential (secret, AES key) of an app, keys derived once. Apps of `APP_CREDENTIALS`
 * have one, with the id `""`; apps of the control plane up to two (docs/contract.md §14).
 */
export interface RegisteredCredential {
  /** `""` for an app of `APP_CREDENTIALS`. */
  readonly credentialId: string;
  readonly hmacKey: KeyObject;
  readonly aesKey: KeyObject;
  /** Epoch milliseconds from which the credential is refused; undefined: no expiry. */
  readonly expiresAt?: number;
}

/** Where an app comes from: `APP_CREDENTIALS` (`config`) or the control plane (`api`). */
export type AppSource = 'config' | 'api';

/** An app ready for use on the hot path: keys derived once at start. */
export interface RegisteredApp {
  readonly appToken: string;
  /** The first credential's keys (an app of `APP_CREDENTIALS` has only that one). */
  readonly hmacKey: KeyObject;
  readonly aesKey: KeyObject;
  readonly aesMode: AesMode;
  /** Every credential whose signature is accepted, at most two for a control-plane app. */
  readonly credentials: readonly RegisteredCredential[];
  readonly source: AppSource;
}

/** An app as the control plane publishes it (`GET /internal/v1/apps`, docs/contract.md §14). */
export interface ControlPlaneApp {
  appToken: string;
  aesMode: AesMode;
  credentials: { credentialId: string; secret: string; aesKey: string; expiresAt?: number }[];
}

/**
 * The credentials of an app still accepted at `now`: those without an expiry or before it.
 * An expired credential is refused from its `expire_time` on, without waiting for the next
 * refresh of the list (docs/contract.md §14).
 */
export function liveCredentials(app: RegisteredApp, now: number): readonly RegisteredCredential[] {
  const all = app.credentials;
  for (const c of all) {
    if (c.expiresAt !== undefined && now >= c.expiresAt) return all.filter((k) => k.expiresAt === undefined || now < k.expiresAt);
  }
  return all;
}

/** Records that a credential verified a request; written in batches, never one write per use. */
export interface CredentialUseSink {
  record(credentialId: string, time: number): void;
}
/** DI token of the optional `CredentialUseSink`. */
export const CREDENTIAL_USES = Symbol('CREDENTIAL_USES');

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

export interface LoadAppCredentialsOptions {
  /**
   * The variable that makes the control plane the source of apps (`APPS_URL` for location,
   * `ADMIN_TOKEN` for account): when it is set, a production service without `APP_CREDENTIALS`
   * starts with no configured app instead of refusing to (docs/contract.md §1).
   */
  controlPlaneVariable?: string;
}

/**
 * Reads the apps from `APP_CREDENTIALS` (inline JSON) or `APP_CREDENTIALS_FILE`.
 * Unset: the demo app, except with `NODE_ENV=production`, where that is an error unless the
 * control plane supplies the apps (then: no configured app).
 */
export function loadAppCredentials(
  env: NodeJS.ProcessEnv = process.env,
  options: LoadAppCredentialsOptions = {},
): { apps: AppCredential[]; demo: boolean } {
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
    const controlPlane = options.controlPlaneVariable;
    if (env.NODE_ENV === 'production') {
      if (controlPlane && env[controlPlane]) return { apps: [], demo: false };
      throw new CredentialsError(
        `APP_CREDENTIALS: required when NODE_ENV=production (or set APP_CREDENTIALS_FILE${controlPlane ? ` or ${controlPlane}` : ''})`,
      );
    }
    return { apps: [{ ...DEMO_APP }], demo: true };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CredentialsError(`${where}: not valid JSON`);
  }
  return { apps: validate(parsed, where), demo: false };
}

function registeredApp(
  appToken: string,
  aesMode: AesMode,
  source: AppSource,
  credentials: readonly RegisteredCredential[],
): RegisteredApp {
  return { appToken, hmacKey: credentials[0].hmacKey, aesKey: credentials[0].aesKey, aesMode, credentials, source };
}

/**
 * The apps by token, with their keys derived once: those of `APP_CREDENTIALS`, fixed for the
 * life of the process, and those of the control plane, replaced as a whole by
 * `replaceControlPlaneApps`. An app token in both is the configured one (docs/contract.md §14).
 */
export class AppRegistry {
  private readonly configured = new Map<string, RegisteredApp>();
  private apps: Map<string, RegisteredApp>;
  /** Keys already derived for a control-plane credential, by id and secret. */
  private derived = new Map<string, { secret: string; aesKey: string; hmac: KeyObject; aes: KeyObject }>();

  constructor(
    credentials: readonly AppCredential[],
    readonly demo = false,
  ) {
    for (const c of credentials) {
      const credential: RegisteredCredential = { credentialId: '', hmacKey: hmacKey(c.secret), aesKey: aesKeyObject(c.aesKey) };
      this.configured.set(c.appToken, registeredApp(c.appToken, c.aesMode ?? 'gcm', 'config', [credential]));
    }
    this.apps = new Map(this.configured);
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env, options: LoadAppCredentialsOptions = {}): AppRegistry {
    const { apps, demo } = loadAppCredentials(env, options);
    return new AppRegistry(apps, demo);
  }

  get(appToken: unknown): RegisteredApp | undefined {
    return typeof appToken === 'string' ? this.apps.get(appToken) : undefined;
  }

  get size(): number {
    return this.apps.size;
  }

  /** How many apps come from `APP_CREDENTIALS`. */
  get configuredSize(): number {
    return this.configured.size;
  }

  /**
   * Replaces every control-plane app by `apps` in one step (a request sees the old set or the
   * new one, never a mix); an app absent from `apps` is no longer accepted. Configured apps
   * are kept and win over a control-plane app of the same token.
   */
  replaceControlPlaneApps(apps: readonly ControlPlaneApp[]): void {
    const next = new Map<string, RegisteredApp>();
    const derived = new Map<string, { secret: string; aesKey: string; hmac: KeyObject; aes: KeyObject }>();
    for (const app of apps) {
      if (this.configured.has(app.appToken) || app.credentials.length === 0) continue;
      const credentials = app.credentials.map((c): RegisteredCredential => {
        const before = this.derived.get(c.credentialId);
        const keys =
          before && before.secret === c.secret && before.aesKey === c.aesKey
            ? before
            : { secret: c.secret, aesKey: c.aesKey, hmac: hmacKey(c.secret), aes: aesKeyObject(c.aesKey) };
        derived.set(c.credentialId, keys);
        return { credentialId: c.credentialId, hmacKey: keys.hmac, aesKey: keys.aes, expiresAt: c.expiresAt };
      });
      next.set(app.appToken, registeredApp(app.appToken, app.aesMode, 'api', credentials));
    }
    for (const [token, app] of this.configured) next.set(token, app);
    this.derived = derived;
    this.apps = next;
  }
}

/** DI token of the `AppRegistry`. */
export const APP_REGISTRY = Symbol('APP_REGISTRY');
