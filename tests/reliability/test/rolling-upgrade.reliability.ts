import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { TestAccountClient } from '@geoaccount/client/internal';
import { APP_A, accountClient } from '../src/apps';
import { type TestDatabase, createTestDatabase } from '../src/database';
import { figure } from '../src/figures';
import { SERVICE_MAIN } from '../src/paths';
import { buildPreviousRelease } from '../src/previous-release';
import { mobile, password } from '../src/sentinels';
import { ServiceProcess, stopAllServices } from '../src/service-process';

/**
 * A rolling upgrade (docs/operations.md, "Upgrade with migrations"): the previous release
 * (tests/reliability/PREVIOUS_RELEASE) serves a database it created; the current code migrates
 * that database to the current schema while the previous server keeps serving; then the previous
 * server and the current one serve the same database at once, each running the main flows, and
 * each reads what the other wrote.
 */
describe('rolling upgrade: the previous release and the current one on one database', () => {
  let db: TestDatabase;
  let previous: ServiceProcess;
  let current: ServiceProcess;
  const PII_KEYS = JSON.stringify([{ id: 'roll-1', key: randomBytes(32).toString('base64') }]);

  beforeAll(async () => {
    const started = Date.now();
    const build = buildPreviousRelease();
    figure(
      'rolling upgrade',
      `previous release ${build.commit.slice(0, 10)} ready (archive, install, build; cached per commit)`,
      (Date.now() - started) / 1000,
      's',
    );
    db = await createTestDatabase();
    previous = await ServiceProcess.start('account', {
      name: 'account-previous',
      main: build.main,
      env: { DATABASE_URL: db.url, PII_KEYS },
    });
  }, 1_200_000);
  afterAll(async () => {
    await stopAllServices();
    await db?.drop();
  });

  /** The main flows of one version, objects named by `tag`; returns the failures. */
  async function flows(client: TestAccountClient, tag: string, i: number): Promise<string[]> {
    const failures: string[] = [];
    const expect201 = async (what: string, p: Promise<{ status: number; body: unknown }>, status = 201) => {
      const res = await p;
      if (res.status !== status) failures.push(`${tag} ${what}: ${res.status} ${JSON.stringify(res.body)}`);
      return res;
    };
    await expect201('create auth', client.createAuth(`${tag}-auth-${i}`, { auth_name: `auth ${i}`, auth_state: '1' }));
    await expect201('modify auth', client.modifyAuth(`${tag}-auth-${i}`, { auth_name: `renamed ${i}` }));
    await expect201('create group', client.createGroup(`${tag}-group-${i}`, { group_name: `group ${i}`, group_auths: `${tag}-auth-${i}` }));
    await expect201(
      'register user',
      client.registerUser(`${tag}-user-${i}`, {
        user_name: `User ${i}`,
        user_type: 'C',
        user_pwd: password('roll'),
        user_mobile: mobile(i),
        user_auth_groups: `${tag}-group-${i}`,
      }),
    );
    await expect201('modify user', client.modifyUser(`${tag}-user-${i}`, { user_name: `Renamed ${i}` }));
    await expect201('read user', client.getUser(`${tag}-user-${i}`), 200);
    await expect201('login', client.login(`${tag}-user-${i}`, password('roll')), 200);
    await expect201('failed login', client.login(`${tag}-user-${i}`, 'wrong'), 401);
    await expect201('effective permission', client.userHasAuth(`${tag}-user-${i}`, `${tag}-auth-${i}`), 200);
    await expect201('list users', client.listUsers({ page_size: '10' }), 200);
    await expect201('audit page', client.auditEvents({ page_size: '20' }), 200);
    return failures;
  }

  it('the previous release serves its database; the current code migrates it while it serves', async () => {
    const client = accountClient(previous.baseUrl, APP_A);
    expect(await flows(client, 'before', 0)).toEqual([]);
    // The current migrate command (as the init container runs it) while the previous one serves.
    const serving = Promise.all(Array.from({ length: 3 }, (_, i) => flows(client, 'during', i)));
    const migrate = spawnSync(process.execPath, [SERVICE_MAIN.account.replace(/main\.js$/, 'database/migrate.js')], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: db.url, PII_KEYS, LOG_LEVEL: 'warn' },
      timeout: 120_000,
    });
    expect(migrate.status).toBe(0);
    process.stdout.write(`rolling upgrade: migrate printed ${migrate.stdout.trim()}\n`);
    expect((await serving).flat()).toEqual([]);
  });

  it('both versions serve the database at once: their flows pass, and each reads what the other wrote', async () => {
    current = await ServiceProcess.start('account', { name: 'account-current', env: { DATABASE_URL: db.url, PII_KEYS } });
    const old = accountClient(previous.baseUrl, APP_A);
    const now = accountClient(current.baseUrl, APP_A);
    const results = await Promise.all([
      ...[1, 2, 3, 4].map((i) => flows(old, 'prev', i)),
      ...[1, 2, 3, 4].map((i) => flows(now, 'curr', i)),
    ]);
    expect(results.flat()).toEqual([]);

    for (const [reader, writer] of [
      [now, 'prev'],
      [old, 'curr'],
      [now, 'before'],
    ] as const) {
      const i = writer === 'before' ? 0 : 1;
      expect(await reader.getUser(`${writer}-user-${i}`)).toMatchObject({
        status: 200,
        body: { user_name: `Renamed ${i}`, user_mobile: mobile(i) },
      });
      expect(await reader.login(`${writer}-user-${i}`, password('roll'))).toMatchObject({ status: 200 });
      expect(await reader.userHasAuth(`${writer}-user-${i}`, `${writer}-auth-${i}`)).toMatchObject({
        status: 200,
        body: { has_auth: '1' },
      });
      expect(await reader.getGroup(`${writer}-group-${i}`)).toMatchObject({ status: 200 });
    }
    // The audit trail holds the events of both, readable from both.
    const pageOf = async (c: TestAccountClient) =>
      ((await c.auditEvents({ page_size: '1000' })).body as { event_list: { resource_id: string }[] }).event_list;
    for (const c of [old, now]) {
      const ids = new Set((await pageOf(c)).map((e) => e.resource_id));
      expect(ids.has('prev-user-1') && ids.has('curr-user-1')).toBe(true);
    }
    figure('rolling upgrade', 'flows of both versions at once on one database (8 flows, cross-reads)', 'no failure');
  });
});
