/**
 * The app aggregate's rules (docs/contract.md §14) on the real repositories: an app is created
 * with a first credential, a `config` app is read-only (30130), an unknown one is 30101, a
 * disabled app leaves the registry, and the registry keeps the last good apps when a refresh
 * cannot read the database.
 */
import { DEMO_APP } from '@geoaccount/signing';
import { asAppToken } from '../../src/common/app-scope';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { ADMIN, type ControlPlaneServices, controlPlaneServices, outcome } from './medium.factory';

const CONFIG_READ_ONLY = { code: '30130', message: 'a config app cannot be changed' };
const NO_APP = { code: '30101', message: 'no such app' };

let db: MediumDatabase;
let s: ControlPlaneServices;

beforeAll(async () => {
  db = await mediumDatabase();
  s = controlPlaneServices(db);
});
afterAll(() => db?.close());

describe('create', () => {
  it('stores the app enabled with one active credential, audits both, and the registry knows it at once', async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Shop', aes_mode: 'ecb' });
    expect(app).toMatchObject({ app_name: 'Shop', aes_mode: 'ecb', state: 'enabled', source: 'api' });
    expect(app.app_token).toMatch(/^app-[0-9a-f]{32}$/);
    expect(app.credentials.map((c) => [c.credential_id, c.state])).toEqual([[credential.credential_id, 'active']]);
    expect(s.registry.credentialsOf(app.app_token)?.map((c) => [c.credentialId, c.aesMode])).toEqual([[credential.credential_id, 'ecb']]);
    const events = (await db.dataSource.query(
      `SELECT resource_type, resource_id, action, operator FROM audit_events WHERE app_token = $1 ORDER BY event_id`,
      [app.app_token],
    )) as unknown[];
    expect(events).toEqual([
      { resource_type: 'app', resource_id: app.app_token, action: 'create', operator: 'admin' },
      { resource_type: 'credential', resource_id: credential.credential_id, action: 'create', operator: 'admin' },
    ]);
  });

  it('stores the secret and AES key sealed, never in clear', async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Sealed' });
    const [row] = (await db.dataSource.query(`SELECT secret, aes_key FROM app_credentials WHERE app_token = $1`, [app.app_token])) as {
      secret: string;
      aes_key: string;
    }[];
    expect(row!.secret).not.toContain(credential.secret);
    expect(row!.aes_key).not.toContain(credential.aes_key);
    expect(s.pii.decrypt(app.app_token, credential.credential_id, 'secret', row!.secret)).toBe(credential.secret);
  });
});

describe('config apps are read-only, unknown apps are 30101', () => {
  it('refuses to modify a config app or issue it a credential (30130)', async () => {
    expect(await outcome(s.apps.modify(ADMIN, asAppToken(DEMO_APP.appToken), { state: 'disabled' }))).toEqual(CONFIG_READ_ONLY);
    expect(await outcome(s.credentials.issue(ADMIN, asAppToken(DEMO_APP.appToken)))).toEqual(CONFIG_READ_ONLY);
    expect(s.registry.get(asAppToken(DEMO_APP.appToken))).toBeDefined();
  });

  it('reads a config app as source "config", without credentials', async () => {
    expect(await s.apps.get(ADMIN, asAppToken(DEMO_APP.appToken))).toMatchObject({ app_token: asAppToken(DEMO_APP.appToken), source: 'config' });
  });

  it('answers 30101 for an app that does not exist', async () => {
    expect(await outcome(s.apps.get(ADMIN, asAppToken('app-0000')))).toEqual(NO_APP);
    expect(await outcome(s.apps.modify(ADMIN, asAppToken('app-0000'), { app_name: 'x' }))).toEqual(NO_APP);
    expect(await outcome(s.credentials.issue(ADMIN, asAppToken('app-0000')))).toEqual(NO_APP);
  });
});

describe('list', () => {
  it('shows an app_admin its own apps only, an admin every one', async () => {
    const { app: mine } = await s.apps.create(ADMIN, { app_name: 'Mine' });
    const { app: other } = await s.apps.create(ADMIN, { app_name: 'Other' });
    const own = await s.apps.list({ login: 'ops', role: 'app_admin', apps: [mine.app_token], via: 'cookie' });
    expect(own.map((a) => a.app_token)).toEqual([mine.app_token]);
    const all = (await s.apps.list(ADMIN)).map((a) => a.app_token);
    expect(all).toEqual(expect.arrayContaining([asAppToken(DEMO_APP.appToken), mine.app_token, other.app_token]));
  });
});

describe('disable', () => {
  it('takes a disabled app out of the registry and brings it back enabled, each change audited', async () => {
    const { app } = await s.apps.create(ADMIN, { app_name: 'Toggle' });
    expect((await s.apps.modify(ADMIN, app.app_token, { state: 'disabled' })).state).toBe('disabled');
    expect(s.registry.credentialsOf(app.app_token)).toBeUndefined();
    await s.apps.modify(ADMIN, app.app_token, { state: 'enabled' });
    expect(s.registry.credentialsOf(app.app_token)).toHaveLength(1);
    const changes = (await db.dataSource.query(
      `SELECT changes::json AS changes FROM audit_events WHERE app_token = $1 AND resource_type = 'app' AND action = 'modify' ORDER BY event_id`,
      [app.app_token],
    )) as { changes: unknown }[];
    expect(changes.map((c) => c.changes)).toEqual([{ state: { from: 'enabled', to: 'disabled' } }, { state: { from: 'disabled', to: 'enabled' } }]);
  });

  it('records no event for a change that changes nothing', async () => {
    const { app } = await s.apps.create(ADMIN, { app_name: 'Same' });
    await s.apps.modify(ADMIN, app.app_token, { app_name: 'Same', state: 'enabled' });
    const [{ n }] = (await db.dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE app_token = $1 AND action = 'modify'`, [
      app.app_token,
    ])) as [{ n: number }];
    expect(n).toBe(0);
  });
});

describe('refresh', () => {
  it('keeps the last good apps while the database cannot answer, and reloads once it can', async () => {
    const { app } = await s.apps.create(ADMIN, { app_name: 'Outage' });
    await db.dataSource.query(`ALTER TABLE control_plane_version RENAME TO control_plane_version_away`);
    try {
      await s.sync.refresh(true);
      expect(s.registry.credentialsOf(app.app_token)).toHaveLength(1);
    } finally {
      await db.dataSource.query(`ALTER TABLE control_plane_version_away RENAME TO control_plane_version`);
    }
    // A change made by another instance is seen on the next refresh.
    await db.dataSource.query(`UPDATE apps SET state = 'disabled' WHERE app_token = $1`, [app.app_token]);
    await db.dataSource.query(`UPDATE control_plane_version SET version = version + 1`);
    await s.sync.refresh();
    expect(s.registry.credentialsOf(app.app_token)).toBeUndefined();
  });
});
