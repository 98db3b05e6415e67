import { DataSource } from 'typeorm';
import { isUnavailableError } from '@geoaccount/api';
import { NONCE_STORE, type NonceStore } from '@geoaccount/signing';
import { dataSourceOptions } from '../src/database/database.options';
import { ENTITIES } from '../src/entities';
import { MIGRATIONS } from '../src/database/migrations';
import { PgNonceStore } from '../src/database/pg-nonce-store';
import { type AccountHarness, startAccountHarness } from './support/account-harness';

describe('database layer', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness();
  });
  afterAll(() => h?.close());

  it('applied every migration at start, once', async () => {
    const { rows } = await h.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => new m().name));
  });

  it('registers exactly the entities of ENTITIES, and the migrations build exactly their schema', async () => {
    const dataSource = h.app.get(DataSource);
    expect(new Set(dataSource.entityMetadatas.map((m) => m.target))).toEqual(new Set(ENTITIES));
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('keys every table of app data by app_token', async () => {
    // The audit trail is keyed by its event (and partitioned by time); app_token leads its indexes.
    // The job leases belong to the service's instances, not to an app.
    // The control plane's operators, their sessions and its change counter belong to no app (docs/contract.md §14).
    const { rows } = await h.db.query<{ table_name: string }>(
      `SELECT t.table_name FROM information_schema.tables t
        WHERE t.table_schema = 'public' AND t.table_name <> 'schema_migrations' AND t.table_name NOT LIKE 'audit\\_events%'
          AND t.table_name NOT IN ('operators', 'admin_sessions', 'control_plane_version', 'job_leases')
          AND NOT EXISTS (SELECT 1 FROM information_schema.key_column_usage k
                           WHERE k.table_name = t.table_name AND k.column_name = 'app_token'
                             AND k.constraint_name = t.table_name || '_pkey')`,
    );
    expect(rows).toEqual([]);
  });

  it('refuses a replayed nonce across instances and lets an expired one be reused', async () => {
    const store = h.app.get<NonceStore>(NONCE_STORE);
    const other = new PgNonceStore(h.app.get(DataSource)); // a second instance on the same database
    expect(await store.claim('app-1', 'n-1', 60)).toBe(true);
    expect(await other.claim('app-1', 'n-1', 60)).toBe(false);
    expect(await other.claim('app-2', 'n-1', 60)).toBe(true);
    await h.db.query(`UPDATE request_nonces SET expires_at = now() - interval '1 second' WHERE nonce = 'n-1'`);
    expect(await other.purge()).toBe(2);
    expect(await store.claim('app-1', 'n-1', 60)).toBe(true);
  });

  it('recognises TypeORM errors of an unreachable server as "unavailable"', async () => {
    const closed = new DataSource(
      dataSourceOptions({
        url: 'postgres://postgres@127.0.0.1:1/none',
        DATABASE_POOL_SIZE: 1,
        DATABASE_CONNECT_TIMEOUT_MS: 1000,
        DATABASE_STATEMENT_TIMEOUT_MS: 0,
      }),
    );
    const err = await closed.initialize().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(/ECONNREFUSED/);
    expect(isUnavailableError(err)).toBe(true);
  });
});
