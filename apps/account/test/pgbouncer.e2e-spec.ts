import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadAccountConfig } from '../src/config/account.config';
import { dataSourceOptions } from '../src/database/database.options';
import { MIGRATIONS } from '../src/database/migrations';
import { MIGRATION_LOCK, runMigrations } from '../src/database/run-migrations';
import { APP_A, type AccountHarness, listenAccountApp, startAccountHarness } from './support/account-harness';
import { createTestDatabase, dropTestDatabase, serverUrl } from './support/database';
import { seedAuth, seedGroup } from './support/fixtures';
import { PrivatePgBouncer } from './support/pgbouncer';
import { NEW_USER, OK, seedUser } from './support/user-fixtures';

/**
 * The account service through a real PgBouncer in `pool_mode = transaction` (docs/operations.md
 * "Connection pooler"): every request's transaction may get another server connection, so
 * anything that relied on session state (a startup parameter, a `SET`, a session lock) breaks
 * here. Migrations take the direct session of `DATABASE_MIGRATION_URL`.
 */

const CHEAP = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };
const TIMEOUT_MS = 3000;
const FAILED = { response_code: '20441', response_message: 'login verification failed' };
const LOCKED = { response_code: '20443', response_message: 'too many failed logins' };

interface EventPage {
  response_code: string;
  count: string;
  event_list: { event_id: string; resource_id: string; action: string }[];
  next_event_id: string;
}

let bouncer: PrivatePgBouncer;

beforeAll(async () => {
  // A small server pool: 200 concurrent requests share 5 server connections, so transactions of
  // different requests (and instances) interleave on the same connections.
  bouncer = await PrivatePgBouncer.start({ serverUrl: serverUrl(), poolSize: 5 });
});
afterAll(() => bouncer?.close());

describe('the account service through PgBouncer (pool_mode = transaction)', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({
      env: { ...CHEAP, DATABASE_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) },
      serviceDatabaseUrl: (database) => bouncer.url(database),
    });
  });
  afterAll(() => h?.close());

  it('connects with no startup parameter PgBouncer refuses (a statement_timeout startup parameter is refused)', async () => {
    expect(h.config.DATABASE_URL).toBe(bouncer.url(h.databaseName));
    expect(bouncer.log()).not.toMatch(/unsupported startup parameter/i);
    const old = new Client({ connectionString: bouncer.url(h.databaseName), statement_timeout: TIMEOUT_MS });
    old.on('error', () => undefined);
    const err = await old.connect().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    await old.end().catch(() => undefined);
    expect(err?.message).toMatch(/unsupported startup parameter/i);
  });

  it("makes the timeout the role's setting in the database, so direct sessions have it too", async () => {
    const { rows } = await h.db.query<{ t: string }>(`SELECT current_setting('statement_timeout') AS t`);
    expect(rows).toEqual([{ t: '3s' }]);
  });

  it('keeps the statement timeout: a statement over it is cut off (57014), one under it runs', async () => {
    const dataSource = h.app.get(DataSource);
    const started = Date.now();
    const err = await dataSource.query('SELECT pg_sleep(10)').then(
      () => undefined,
      (e: unknown) => e as { code?: string },
    );
    const elapsed = Date.now() - started;
    process.stdout.write(`pgbouncer: pg_sleep(10) cut off after ${elapsed} ms (statement_timeout ${TIMEOUT_MS} ms)\n`);
    expect(err?.code).toBe('57014');
    expect(elapsed).toBeLessThan(9_000);
    // Every server connection of the pool has it: many transactions at once, each reading it.
    const seen = await Promise.all(
      Array.from({ length: 20 }, () =>
        dataSource.transaction(async (em) => {
          const [row] = (await em.query(`SELECT current_setting('statement_timeout') AS t, pg_backend_pid() AS pid, pg_sleep(0.05)`)) as {
            t: string;
            pid: number;
          }[];
          return row;
        }),
      ),
    );
    expect(new Set(seen.map((r) => r.t))).toEqual(new Set(['3s']));
    process.stdout.write(`pgbouncer: 20 concurrent transactions ran on ${new Set(seen.map((r) => r.pid)).size} server connections\n`);
  });

  it('creates, reads, modifies and lists auths and groups', async () => {
    await seedAuth(h.a, 'pb-root', { auth_state: '1', sub_auth_flag: '1' });
    await seedAuth(h.a, 'pb-leaf', { auth_state: '1', parent_auth_id: 'pb-root' });
    expect(await h.a.modifyAuth('pb-leaf', { auth_name: 'renamed leaf' })).toMatchObject({ status: 201, body: OK });
    expect(await h.a.getAuth('pb-leaf')).toMatchObject({
      status: 200,
      body: { auth_id: 'pb-leaf', auth_name: 'renamed leaf', parent_auth_id: 'pb-root' },
    });
    const auths = (await h.a.listAuths()).body as { count: string };
    expect(Number(auths.count)).toBeGreaterThanOrEqual(2);

    await seedGroup(h.a, 'PB-G', { group_auths: 'pb-root' });
    expect(await h.a.modifyGroup('PB-G', { group_name: 'renamed group' })).toMatchObject({ status: 201, body: OK });
    expect(await h.a.getGroup('PB-G')).toMatchObject({ status: 200, body: { group_id: 'PB-G', group_name: 'renamed group' } });
    expect((await h.a.listGroups()).body).toMatchObject({ response_code: '90000' });
  });

  it('registers, reads, modifies and lists users, logs in, and answers effective permissions', async () => {
    const userId = await seedUser(h.a, 'pb-user', { user_auth_groups: 'PB-G', user_mobile: '13800138000', cert_id: '110101199001011234' });
    expect(await h.a.getUser('pb-user')).toMatchObject({
      status: 200,
      body: { user_id: userId, user_login_id: 'pb-user', user_mobile: '13800138000', cert_id: '110101199001011234' },
    });
    expect(await h.a.modifyUser('pb-user', { user_name: 'Renamed' })).toMatchObject({ status: 201, body: OK });
    expect((await h.a.listUsers()).body).toMatchObject({ response_code: '90000' });
    expect(await h.a.login('pb-user', NEW_USER.user_pwd)).toMatchObject({ status: 200, body: OK });
    expect(await h.a.login('pb-user', 'wrong password')).toMatchObject({ status: 401, body: FAILED });
    expect(await h.a.userHasAuth('pb-user', 'pb-leaf')).toMatchObject({ status: 200, body: { has_auth: '1', via: 'ancestor:pb-root' } });
    expect(await h.a.userAuths('pb-user')).toMatchObject({ status: 200, body: { count: '1', list: [{ auth_id: 'pb-root' }] } });
  });

  it('counts each of 5 concurrent failed logins exactly once, and locks (the lockout race)', async () => {
    await seedUser(h.a, 'pb-burst');
    const results = await Promise.all(Array.from({ length: 5 }, () => h.a.login('pb-burst', 'not the password')));
    for (const r of results) expect(r).toMatchObject({ status: 401, body: FAILED });
    const { rows } = await h.db.query(
      `SELECT cardinality(failed_at) AS n FROM login_failures WHERE app_token = $1 AND user_login_id = 'pb-burst'`,
      [APP_A.appToken],
    );
    expect(rows).toEqual([{ n: 5 }]);
    expect(await h.a.login('pb-burst', NEW_USER.user_pwd)).toMatchObject({ status: 403, body: LOCKED });
  });

  it('pages through the audit trail, each event exactly once', async () => {
    const all = (await h.a.auditEvents({ page_size: '1000' })).body as unknown as EventPage;
    const ids: string[] = [];
    let after = '';
    for (;;) {
      const page = (await h.a.auditEvents({ page_size: '3', ...(after ? { after_event_id: after } : {}) })).body as unknown as EventPage;
      ids.push(...page.event_list.map((e) => e.event_id));
      if (!page.next_event_id) break;
      after = page.next_event_id;
    }
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toEqual(all.event_list.map((e) => e.event_id));
  });

  it('answers 200 concurrent mixed requests, none failing, and their writes and events all committed', async () => {
    await seedUser(h.a, 'pb-reader');
    const before = ((await h.a.auditEvents({ page_size: '1000' })).body as unknown as EventPage).event_list.length;
    const started = Date.now();
    const requests = Array.from({ length: 200 }, (_, i) => {
      switch (i % 5) {
        case 0:
          return h.a
            .registerUser(`pb-many-${i}`, { ...NEW_USER, user_mobile: `1390000${String(i).padStart(4, '0')}` })
            .then((r) => [r, 201] as const);
        case 1:
          return h.a.getUser('pb-reader').then((r) => [r, 200] as const);
        case 2:
          return h.a.login('pb-reader', NEW_USER.user_pwd).then((r) => [r, 200] as const);
        case 3:
          return h.a.userHasAuth('pb-user', 'pb-leaf').then((r) => [r, 200] as const);
        default:
          return h.a.auditEvents({ page_size: '10' }).then((r) => [r, 200] as const);
      }
    });
    const results = await Promise.all(requests);
    process.stdout.write(`pgbouncer: 200 concurrent mixed requests in ${Date.now() - started} ms\n`);
    const failed = results.filter(([r, status]) => r.status !== status);
    expect(failed.map(([r]) => [r.status, r.body])).toEqual([]);
    const { rows } = await h.db.query(`SELECT count(*)::int AS n FROM users WHERE user_login_id LIKE 'pb-many-%'`);
    expect(rows).toEqual([{ n: 40 }]);
    const after = (await h.a.auditEvents({ page_size: '1000' })).body as unknown as EventPage;
    // 40 registrations and 40 logins, each with its event.
    expect(after.event_list.length - before).toBe(80);
  });

  it('leaves no advisory lock behind on the server connections', async () => {
    const { rows } = await h.db.query(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND a.datname = current_database()`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });
});

describe('migrations with a transaction pooler', () => {
  it('migrate over the direct DATABASE_MIGRATION_URL while the service uses the pooler', async () => {
    const database = await createTestDatabase(serverUrl(), 'account_pb_migr');
    try {
      // An unreachable migration URL stops the start: the migration really takes that URL.
      const refused = await listenAccountApp(bouncer.url(database.name), {
        env: { ...CHEAP, DATABASE_MIGRATION_URL: 'postgres://postgres@127.0.0.1:1/none', DATABASE_CONNECT_TIMEOUT_MS: '1000' },
      }).then(
        async (running) => {
          await running.app.close();
          return undefined;
        },
        (err: unknown) => err as Error,
      );
      expect(refused?.message).toMatch(/ECONNREFUSED/);
      const running = await listenAccountApp(bouncer.url(database.name), { env: { ...CHEAP, DATABASE_MIGRATION_URL: database.url } });
      await running.app.close();
      const direct = new Client({ connectionString: database.url });
      await direct.connect();
      const { rows } = await direct.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      await direct.end();
      expect(rows).toEqual([{ n: MIGRATIONS.length }]);
    } finally {
      await dropTestDatabase(database.name);
    }
  });

  it('even through the pooler, two concurrent runs apply each migration once and leave no lock on a pooled connection', async () => {
    const database = await createTestDatabase(serverUrl(), 'account_pb_migr');
    const config = loadAccountConfig({ DATABASE_URL: bouncer.url(database.name), ...CHEAP });
    const sources = [0, 1].map(() => new DataSource(dataSourceOptions({ ...config, url: bouncer.url(database.name) })));
    try {
      await Promise.all(sources.map((s) => s.initialize()));
      const applied = await Promise.all(sources.map((s) => runMigrations(s)));
      expect(applied.flat().sort()).toEqual(MIGRATIONS.map((m) => new m().name).sort());
      const direct = new Client({ connectionString: serverUrl() });
      await direct.connect();
      const { rows } = await direct.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND d.datname = $1 AND l.objid = $2::bigint % 4294967296`,
        [database.name, MIGRATION_LOCK],
      );
      await direct.end();
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all(sources.map((s) => (s.isInitialized ? s.destroy() : undefined)));
      await dropTestDatabase(database.name);
    }
  });
});
