/**
 * The control plane's rules at service level (docs/contract.md §14): the services on their
 * real repositories and a real PostgreSQL database, no HTTP (the wire is admin-api.e2e-spec).
 */
import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { ApiException, InvalidParameterException } from '@geoaccount/api';
import { APP_REGISTRY, AppRegistry, signAccount, verifyAccountCredential } from '@geoaccount/signing';
import { AppModule } from '../src/app.module';
import type { AdminPrincipal } from '../src/admin-sessions/admin-principal';
import { AppsService } from '../src/apps/apps.service';
import { loadAccountConfig } from '../src/config/account.config';
import { rewrapCredentials } from '../src/credentials/credential-rewrap';
import { CredentialsService } from '../src/credentials/credentials.service';
import { CredentialsSync } from '../src/credentials/credentials-sync';
import { OperatorsService } from '../src/operators/operators.service';
import { PiiCipher } from '../src/pii/pii-cipher';
import { APP_A } from './support/account-harness';
import { createTestDatabase, dropTestDatabase } from './support/database';

const ADMIN: AdminPrincipal = { login: 'admin', role: 'admin', apps: [], via: 'token' };
const K1 = { id: 'k1', key: randomBytes(32) };
const K2 = { id: 'k2', key: randomBytes(32) };

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'none';
  } catch (err) {
    if (err instanceof ApiException) return err.result.code;
    if (err instanceof InvalidParameterException) return `90100 ${err.message}`;
    throw err;
  }
}

describe('control plane services', () => {
  let database: { name: string; url: string };
  let ctx: INestApplicationContext;
  let apps: AppsService;
  let credentials: CredentialsService;
  let operators: OperatorsService;
  let registry: AppRegistry;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadAccountConfig({
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      PII_KEYS: JSON.stringify([{ id: K1.id, key: K1.key.toString('base64') }]),
    });
    registry = new AppRegistry([APP_A]);
    ctx = await NestFactory.createApplicationContext(AppModule.forRoot(config, registry, { byApp: new Map() }), { logger: false });
    await ctx.init();
    apps = ctx.get(AppsService);
    credentials = ctx.get(CredentialsService);
    operators = ctx.get(OperatorsService);
  });
  afterAll(async () => {
    await ctx?.close();
    if (database) await dropTestDatabase(database.name);
  });

  it('an app gets one credential, a second, never a third; the registry follows at once', async () => {
    const { app, credential } = await apps.create(ADMIN, { app_name: 'Svc' });
    expect(ctx.get(APP_REGISTRY)).toBe(registry);
    expect(registry.credentialsOf(app.app_token)?.map((c) => c.credentialId)).toEqual([credential.credential_id]);
    const second = await credentials.issue(ADMIN, app.app_token);
    expect(await codeOf(credentials.issue(ADMIN, app.app_token))).toBe('30120');
    const candidates = registry.credentialsOf(app.app_token)!;
    expect(candidates).toHaveLength(2);
    const sig = signAccount(second.secret, 'GET', app.app_token, '/account/v1.0.1/auths', { timestamp: '1' });
    expect(verifyAccountCredential(candidates, 'GET', app.app_token, '/account/v1.0.1/auths', { timestamp: '1' }, sig)?.credentialId).toBe(
      second.credential_id,
    );
    // Revoked: a place for a new one.
    await credentials.revoke(ADMIN, app.app_token, credential.credential_id);
    expect(registry.credentialsOf(app.app_token)?.map((c) => c.credentialId)).toEqual([second.credential_id]);
    expect(await codeOf(credentials.issue(ADMIN, app.app_token))).toBe('none');
  });

  it('retire_others_in sets the other active credential\'s expire_time', async () => {
    const { app, credential } = await apps.create(ADMIN, { app_name: 'Retire' });
    const before = Date.now();
    await credentials.issue(ADMIN, app.app_token, 3600);
    const first = registry.credentialsOf(app.app_token)!.find((c) => c.credentialId === credential.credential_id)!;
    expect(first.expiresAt! - before).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(first.expiresAt! - before).toBeLessThanOrEqual(3600_000 + 60_000);
    const view = await apps.get(ADMIN, app.app_token);
    expect(view.credentials.map((c) => [c.state, c.expire_time === ''])).toEqual([
      ['active', false],
      ['active', true],
    ]);
  });

  it('refuses changes to config apps (30130) and unknown apps or credentials (30101, 30201)', async () => {
    expect(await codeOf(credentials.issue(ADMIN, APP_A.appToken))).toBe('30130');
    expect(await codeOf(apps.modify(ADMIN, APP_A.appToken, { state: 'disabled' }))).toBe('30130');
    expect(await codeOf(credentials.issue(ADMIN, 'app-0000'))).toBe('30101');
    expect(await codeOf(apps.get(ADMIN, 'app-0000'))).toBe('30101');
    const { app } = await apps.create(ADMIN, { app_name: 'Missing cred' });
    expect(await codeOf(credentials.revoke(ADMIN, app.app_token, 'cred-none'))).toBe('30201');
  });

  it('a disabled app leaves the registry, an enabled one comes back', async () => {
    const { app } = await apps.create(ADMIN, { app_name: 'Toggle' });
    await apps.modify(ADMIN, app.app_token, { state: 'disabled' });
    expect(registry.credentialsOf(app.app_token)).toBe(undefined);
    await apps.modify(ADMIN, app.app_token, { state: 'enabled' });
    expect(registry.credentialsOf(app.app_token)).toHaveLength(1);
  });

  it('keeps the last good apps while the database cannot answer a refresh', async () => {
    const { app } = await apps.create(ADMIN, { app_name: 'Outage' });
    const dataSource = ctx.get(DataSource);
    await dataSource.query(`ALTER TABLE control_plane_version RENAME TO control_plane_version_away`);
    try {
      await ctx.get(CredentialsSync).refresh(true);
      expect(registry.credentialsOf(app.app_token)).toHaveLength(1);
    } finally {
      await dataSource.query(`ALTER TABLE control_plane_version_away RENAME TO control_plane_version`);
    }
    await ctx.get(CredentialsSync).refresh(true);
    expect(registry.credentialsOf(app.app_token)).toHaveLength(1);
  });

  it('operators: a password or the directory, apps for an app_admin only, naming apps; 30310 when the login exists', async () => {
    expect(await codeOf(operators.create(ADMIN, { login: 'x', role: 'auditor' }))).toBe('90100 missing password');
    expect(await codeOf(operators.create(ADMIN, { login: 'x', role: 'auditor', password: 'p'.repeat(12), directory: true }))).toBe(
      '90100 directory operator, no password',
    );
    expect(await codeOf(operators.create(ADMIN, { login: 'x', role: 'auditor', password: 'p'.repeat(12), apps: [APP_A.appToken] }))).toMatch(
      /^90100 .*apps$/,
    );
    expect(await codeOf(operators.create(ADMIN, { login: 'x', role: 'app_admin', password: 'p'.repeat(12), apps: ['app-ffff'] }))).toBe(
      '90100 unknown app in apps',
    );
    const created = await operators.create(ADMIN, { login: 'x', role: 'app_admin', password: 'p'.repeat(12), apps: [APP_A.appToken] });
    expect(created).toMatchObject({ login: 'x', role: 'app_admin', apps: [APP_A.appToken], directory: false, locked: false });
    expect(await codeOf(operators.create(ADMIN, { login: 'x', role: 'auditor', password: 'p'.repeat(12) }))).toBe('30310');
    // A role other than app_admin drops the apps.
    expect((await operators.modify(ADMIN, 'x', { role: 'auditor' })).apps).toEqual([]);
    const dir = await operators.create(ADMIN, { login: 'dir', role: 'auditor', directory: true });
    expect(dir.directory).toBe(true);
  });

  it('rotate-pii re-seals credentials under the new first key, resumable, the old key then removable', async () => {
    const { app, credential } = await apps.create(ADMIN, { app_name: 'Rotate' });
    const dataSource = ctx.get(DataSource);
    const rotated = new PiiCipher([K2, K1]);
    const counts = await rewrapCredentials(dataSource, rotated, { batchSize: 2 });
    expect(counts.rewritten).toBeGreaterThanOrEqual(1);
    expect(counts.rewritten).toBe(counts.scanned);
    expect((await rewrapCredentials(dataSource, rotated)).scanned).toBe(0);
    const rows = (await dataSource.query(`SELECT key_id, secret, aes_key FROM app_credentials WHERE credential_id = $1`, [
      credential.credential_id,
    ])) as { key_id: string; secret: string; aes_key: string }[];
    expect(rows[0]!.key_id).toBe('k2');
    const onlyK2 = new PiiCipher([K2]);
    expect(onlyK2.decrypt(app.app_token, credential.credential_id, 'secret', rows[0]!.secret)).toBe(credential.secret);
    expect(onlyK2.decrypt(app.app_token, credential.credential_id, 'aes_key', rows[0]!.aes_key)).toBe(credential.aes_key);
    // Bound to its credential: not readable as another's.
    expect(() => onlyK2.decrypt(app.app_token, 'cred-other', 'secret', rows[0]!.secret)).toThrow();
  });
});
