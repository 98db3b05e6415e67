import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { type AppCredential, AppRegistry } from '@geoaccount/signing';
import { TestAccountClient } from '@geoaccount/client/internal';
import { fetchVia } from '@geoaccount/testing';
import { createAccountApp } from '../../src/app';
import { type AccountConfig, loadAccountConfig } from '../../src/config/account.config';
import { type DirectoryConfig, loadDirectoryConfig } from '../../src/config/directory.config';
import { createTestDatabase, dropTestDatabase, serverUrl } from './database';

/** App A: AES-GCM logins. */
export const APP_A: Required<AppCredential> = {
  appToken: `app-a11ce${'0'.repeat(30)}1`, // 40 characters, the longest app_token
  secret: 'secret-of-app-a-0123456789',
  aesKey: 'aes-key-of-app-a',
  aesMode: 'gcm',
};

/** App B: AES-ECB logins (Java's `Cipher.getInstance("AES")`). */
export const APP_B: Required<AppCredential> = {
  appToken: 'app-b0b',
  secret: 'secret-of-app-b-9876543210',
  aesKey: 'aes-key-of-app-b',
  aesMode: 'ecb',
};

export interface AccountHarness {
  app: INestApplication;
  config: AccountConfig;
  baseUrl: string;
  /** Signed clients of app A and app B. */
  a: TestAccountClient;
  b: TestAccountClient;
  /** A client of app A with a fresh random nonce on every request. */
  aWithNonce: TestAccountClient;
  /** A pool on the run's own database, for assertions on what was stored. */
  db: Pool;
  databaseName: string;
  databaseUrl: string;
  /** A signed client for another app of this run (e.g. with other credentials). */
  client(app: AppCredential, options?: { nonce?: boolean }): TestAccountClient;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Environment overrides for `loadAccountConfig` (e.g. `LOGIN_MAX_FAILURES`). */
  env?: NodeJS.ProcessEnv;
  /** Apps registered besides A and B. */
  apps?: AppCredential[];
  /** Directories of domain logins; default: the `LDAP_*` variables of `env`. */
  directories?: DirectoryConfig;
  /**
   * The service's `DATABASE_URL` for the run's database (e.g. through a connection pooler);
   * the direct URL then becomes `DATABASE_MIGRATION_URL`. Default: the direct URL.
   */
  serviceDatabaseUrl?: (database: string) => string;
}

/** A running account service (the real app) on 127.0.0.1, port 0. */
export interface RunningAccountApp {
  app: INestApplication;
  config: AccountConfig;
  baseUrl: string;
  client(app: AppCredential, options?: { nonce?: boolean }): TestAccountClient;
}

/**
 * Starts `createAccountApp` on an existing database (e.g. a second instance of a run, or one
 * on a private server a test stops). Apps A and B are registered, plus `options.apps`.
 */
export async function listenAccountApp(databaseUrl: string, options: HarnessOptions = {}): Promise<RunningAccountApp> {
  // The login budget per app (on by default) is off unless a test sets it: suites fire many logins at once.
  const config = loadAccountConfig({
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '20',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT_PER_MINUTE: '0',
    PASSWORD_HASH_QUEUE: '1000',
    ...options.env,
  });
  const registry = new AppRegistry([APP_A, APP_B, ...(options.apps ?? [])]);
  const app = await createAccountApp(config, registry, options.directories ?? loadDirectoryConfig({ ...options.env }));
  try {
    await app.listen(0, '127.0.0.1');
  } catch (err) {
    await app.close();
    throw err;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const client = (cred: AppCredential, opts: { nonce?: boolean } = {}) =>
    new TestAccountClient({
      retries: 0,
      baseUrl,
      appToken: cred.appToken,
      secret: cred.secret,
      aesKey: cred.aesKey,
      aesMode: cred.aesMode,
      nonce: opts.nonce,
      // Through the run's Prism validating proxy when there is one (E2E_VIA_PRISM=1).
      fetch: fetchVia(baseUrl),
    });
  return { app, config, baseUrl, client };
}

/**
 * Boots the real account service for one test file: a fresh database on the server of
 * `DATABASE_URL` (migrated by the service's own start), `createAccountApp` listening on
 * 127.0.0.1 port 0, apps A (gcm) and B (ecb). `close()` stops it and drops the database.
 */
export async function startAccountHarness(options: HarnessOptions = {}): Promise<AccountHarness> {
  const database = await createTestDatabase();
  let running: RunningAccountApp | undefined;
  let db: Pool | undefined;
  try {
    const serviceUrl = options.serviceDatabaseUrl?.(database.name);
    running = serviceUrl
      ? await listenAccountApp(serviceUrl, { ...options, env: { DATABASE_MIGRATION_URL: database.url, ...options.env } })
      : await listenAccountApp(database.url, options);
    db = new Pool({ connectionString: database.url, max: 4 });
    // An idle client of this assertion pool can be ended by the server (a test stopping its
    // database, the final DROP ... WITH (FORCE)); that must not surface as an unhandled error.
    db.on('error', () => undefined);
    const { app, config, baseUrl, client } = running;
    const pool = db;
    return {
      app,
      config,
      baseUrl,
      a: client(APP_A),
      b: client(APP_B),
      aWithNonce: client(APP_A, { nonce: true }),
      db: pool,
      databaseName: database.name,
      databaseUrl: database.url,
      client,
      async close() {
        await app.close();
        await pool.end();
        await dropTestDatabase(database.name, serverUrl());
      },
    };
  } catch (err) {
    await running?.app.close().catch(() => undefined);
    await db?.end().catch(() => undefined);
    await dropTestDatabase(database.name).catch(() => undefined);
    throw err;
  }
}
