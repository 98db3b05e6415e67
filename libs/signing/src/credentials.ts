import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { hmacKey } from './hmac';
import { aesKeyObject } from './login-crypto';
import { type AesMode, DEMO_APP } from './portable';

/** One calling application, as configured in `APP_CREDENTIALS` (docs/contract.md §1). */
export interface AppCredential {
  appToken: string;
  secret: string;
  aesKey: string;
  aesMode?: AesMode;
}

/**
 * One credential of an app ready for use on the hot path (keys derived once): what a request
 * signed with it acts as. An `APP_CREDENTIALS` app has one, without id; an app of the control
 * plane (docs/contract.md §14) up to two active ones.
 */
export interface RegisteredApp {
  readonly appToken: string;
  readonly hmacKey: KeyObject;
  readonly aesKey: KeyObject;
  readonly aesMode: AesMode;
  /** The control plane's credential id; unset for an `APP_CREDENTIALS` app. */
  readonly credentialId?: string;
  /** Epoch milliseconds from which the credential is refused; unset: no expiry. */
  readonly expiresAt?: number;
}

/** A credential of the control plane, in clear, as the service that loads it decrypted it. */
export interface ManagedCredential {
  credentialId: string;
  secret: string;
  aesKey: string;
  /** Epoch milliseconds from which it is refused; unset: no expiry. */
  expiresAt?: number;
}

/** An active app of the control plane with its active credentials. */
export interface ManagedApp {
  appToken: string;
  aesMode: AesMode;
  credentials: ManagedCredential[];
}

/** One recorded use of a credential: its id and the minute (epoch ms, truncated) of its last use. */
export interface CredentialUse {
  credentialId: string;
  /** Epoch milliseconds of the start of the minute of the last use. */
  minute: number;
}

const MINUTE_MS = 60_000;

/**
 * The last use of each credential, to the minute, kept in memory: recording is one map write
 * per request, and the owner writes the batch every `CREDENTIAL_USE_FLUSH_SECONDS`
 * (docs/contract.md §14 `last_used_time`), never a database write per request.
 */
export class CredentialUseLog {
  private pending = new Map<string, number>();

  record(credentialId: string, now = Date.now()): void {
    const minute = now - (now % MINUTE_MS);
    if ((this.pending.get(credentialId) ?? -1) < minute) this.pending.set(credentialId, minute);
  }

  /** The uses recorded since the last drain, and forgets them. */
  drain(): CredentialUse[] {
    if (this.pending.size === 0) return [];
    const uses = [...this.pending].map(([credentialId, minute]) => ({ credentialId, minute }));
    this.pending = new Map();
    return uses;
  }

  /** Puts back uses whose write failed (a later use of the same credential wins). */
  restore(uses: readonly CredentialUse[]): void {
    for (const u of uses) if ((this.pending.get(u.credentialId) ?? -1) < u.minute) this.pending.set(u.credentialId, u.minute);
  }

  get size(): number {
    return this.pending.size;
  }
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
    // docs/contract.md §1: apps then come from the control plane alone (§14): account's
    // ADMIN_TOKEN, location's APPS_URL.
    if (env.NODE_ENV === 'production' && (env.ADMIN_TOKEN || env.APPS_URL)) return { apps: [], demo: false };
    if (env.NODE_ENV === 'production') {
      throw new CredentialsError(
        'APP_CREDENTIALS: required when NODE_ENV=production (or set APP_CREDENTIALS_FILE; account: ADMIN_TOKEN, location: APPS_URL)',
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

/**
 * The apps by token, with their keys derived once: those of `APP_CREDENTIALS` (fixed at start,
 * always winning) and those of the control plane (replaced as a whole by `setManaged` when the
 * service learns a change). Lookups are one map read; nothing here touches a database.
 */
export class AppRegistry {
  private readonly configured = new Map<string, readonly RegisteredApp[]>();
  private managed = new Map<string, readonly RegisteredApp[]>();
  /** Keys already derived, by credential id: a refresh does not derive them again. */
  private derived = new Map<string, { secret: string; aesKey: string; hmacKey: KeyObject; aesKeyObject: KeyObject }>();
  /** The last use of each control-plane credential verified by this process. */
  readonly uses = new CredentialUseLog();

  constructor(
    credentials: readonly AppCredential[],
    readonly demo = false,
  ) {
    for (const c of credentials) {
      this.configured.set(c.appToken, [
        { appToken: c.appToken, hmacKey: hmacKey(c.secret), aesKey: aesKeyObject(c.aesKey), aesMode: c.aesMode ?? 'gcm' },
      ]);
    }
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): AppRegistry {
    const { apps, demo } = loadAppCredentials(env);
    return new AppRegistry(apps, demo);
  }

  /** The credentials a request of `appToken` may be signed with (one per active credential). */
  credentialsOf(appToken: unknown): readonly RegisteredApp[] | undefined {
    if (typeof appToken !== 'string') return undefined;
    return this.configured.get(appToken) ?? this.managed.get(appToken);
  }

  /** The app's first credential that has not expired. */
  get(appToken: unknown, now = Date.now()): RegisteredApp | undefined {
    return this.credentialsOf(appToken)?.find((c) => c.expiresAt === undefined || c.expiresAt > now);
  }

  /** Whether `appToken` comes from `APP_CREDENTIALS` (read-only for the control plane). */
  isConfigured(appToken: string): boolean {
    return this.configured.has(appToken);
  }

  /** The `APP_CREDENTIALS` apps: token and AES mode (never a key). */
  configuredApps(): { appToken: string; aesMode: AesMode }[] {
    return [...this.configured.values()].map(([c]) => ({ appToken: c!.appToken, aesMode: c!.aesMode }));
  }

  /**
   * Replaces the control plane's apps (docs/contract.md §14): the active apps with their active
   * credentials. An app token also in `APP_CREDENTIALS` keeps its configured credentials.
   */
  setManaged(apps: readonly ManagedApp[]): void {
    const managed = new Map<string, readonly RegisteredApp[]>();
    const derived = new Map<string, { secret: string; aesKey: string; hmacKey: KeyObject; aesKeyObject: KeyObject }>();
    for (const app of apps) {
      if (this.configured.has(app.appToken)) continue;
      const credentials = app.credentials.map((c): RegisteredApp => {
        let keys = this.derived.get(c.credentialId);
        if (!keys || keys.secret !== c.secret || keys.aesKey !== c.aesKey)
          keys = { secret: c.secret, aesKey: c.aesKey, hmacKey: hmacKey(c.secret), aesKeyObject: aesKeyObject(c.aesKey) };
        derived.set(c.credentialId, keys);
        return {
          appToken: app.appToken,
          hmacKey: keys.hmacKey,
          aesKey: keys.aesKeyObject,
          aesMode: app.aesMode,
          credentialId: c.credentialId,
          ...(c.expiresAt === undefined ? {} : { expiresAt: c.expiresAt }),
        };
      });
      if (credentials.length > 0) managed.set(app.appToken, credentials);
    }
    this.managed = managed;
    this.derived = derived;
  }

  /** Records a verified request's credential use (control-plane credentials only). */
  recordUse(credential: RegisteredApp, now = Date.now()): void {
    if (credential.credentialId !== undefined) this.uses.record(credential.credentialId, now);
  }

  /** Apps known (configured and control plane). */
  get size(): number {
    let n = this.configured.size;
    for (const token of this.managed.keys()) if (!this.configured.has(token)) n++;
    return n;
  }
}

/** DI token of the `AppRegistry`. */
export const APP_REGISTRY = Symbol('APP_REGISTRY');
