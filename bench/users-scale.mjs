#!/usr/bin/env node
// `pnpm bench:scale`: users pages (interface 203) at scale. Seeds SCALE_USERS users (default
// 10,000,000) of one app over SCALE_ORGS orgs (default 1,000) by SQL into a fresh database
// migrated by the service, numbered as registrations number them (dense per-app and per-org
// positions, the counter rows), starts the compiled account service on it and asks pages first,
// middle and last, of the whole app and of one org, through the SDK (signed, as a client would).
// Prints p50 / p99 per page and how long the seeding took. Never fails on timing.
import { accountClientClass, accountService, pg, scratchDatabase, timed } from './lib/scale.mjs';

const N = Number(process.env.SCALE_USERS ?? 10_000_000);
const ORGS = Number(process.env.SCALE_ORGS ?? 1_000);
const ASKS = Number(process.env.SCALE_ASKS ?? 200);
const PAGE_SIZE = 100;
const CHUNK = 1_000_000;
const app = { appToken: 'app-5ca1e000', secret: 'users-scale-secret-0123', aesKey: 'users-scale', aesMode: 'gcm' };
const AccountClient = await accountClientClass();

const database = await scratchDatabase('bench_users');
const service = await accountService(database.url, app);
try {
  // The schema comes from the service itself (migrations at start).
  await service.start();
  await service.stop();

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  await db.query('SET synchronous_commit = off');
  // The numbering triggers are left out while seeding; the seed writes the numbers they would
  // have written: user g is the app's g-th, the (g div ORGS + 1)-th of org g mod ORGS.
  await db.query('SET session_replication_role = replica');
  const t0 = Date.now();
  for (let from = 0; from < N; from += CHUNK) {
    const to = Math.min(N, from + CHUNK) - 1;
    await db.query(
      `INSERT INTO users (app_token, user_login_id, user_id, org_id, user_name, user_type, is_domain_user, app_ord, org_ord, user_extends)
       SELECT $1, 'u' || lpad(g::text, 8, '0'), lpad(to_hex(g), 16, '0'), 'ORG' || (g % $4), 'User ' || g,
              CASE WHEN g % 3 = 0 THEN 'B' ELSE 'C' END, '0', g + 1, g / $4 + 1, '{"tier":' || (g % 5) || '}'
         FROM generate_series($2::bigint, $3::bigint) AS g`,
      [app.appToken, from, to, ORGS],
    );
    process.stdout.write(`seeded ${(to + 1).toLocaleString('en-US')} users (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
  await db.query(`INSERT INTO user_counts (app_token, total) VALUES ($1, $2)`, [app.appToken, N]);
  await db.query(
    `INSERT INTO user_org_counts (app_token, org_id, total)
     SELECT $1, 'ORG' || o, count(*) FROM generate_series(0, $2::bigint - 1) AS g, LATERAL (SELECT g % $3 AS o) x GROUP BY o`,
    [app.appToken, N, ORGS],
  );
  await db.query('VACUUM ANALYZE users');
  const seedSeconds = (Date.now() - t0) / 1000;
  await db.end();

  await service.start();
  const client = new AccountClient({ baseUrl: service.baseUrl, ...app, retries: 0 });
  const perOrg = Math.ceil(N / ORGS);
  const cases = [
    ['whole app', {}, N],
    ['org_id=ORG7', { org_id: 'ORG7' }, perOrg],
  ];
  const ask = async (filter, query, total, page) => {
    const res = await client.listUsers({ ...query, page_number: String(page), page_size: String(PAGE_SIZE) });
    if (res.status !== 200 || Number(res.body.count) !== total || res.body.list.length === 0) {
      throw new Error(`${filter} page ${page}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
  };
  // Warm-up (a fresh process: the JIT, the pool's connections), pages all over the range.
  for (const [filter, query, total] of cases) {
    const last = Math.ceil(total / PAGE_SIZE);
    await timed(50, (i) => ask(filter, query, total, 1 + Math.floor((i / 50) * last)));
  }
  const rows = [];
  for (const [filter, query, total] of cases) {
    const last = Math.ceil(total / PAGE_SIZE);
    for (const [where, page] of [
      ['first', 1],
      ['middle', Math.ceil(last / 2)],
      ['last', last],
    ]) {
      const { p50, p99 } = await timed(ASKS, () => ask(filter, query, total, page));
      rows.push({ filter, page: `${where} (${page.toLocaleString('en-US')})`, 'p50 ms': p50.toFixed(1), 'p99 ms': p99.toFixed(1), target: 'p99 < 50 ms', met: p99 < 50 ? 'yes' : 'NO' });
    }
  }
  console.log(
    `\nusers pages at ${N.toLocaleString('en-US')} users (${ORGS.toLocaleString('en-US')} orgs, one app); seeded in ${seedSeconds.toFixed(0)} s; ` +
      `${ASKS} asks of ${PAGE_SIZE} users per page, signed HTTP through the SDK`,
  );
  console.table(rows);

  // What PostgreSQL does for the middle page of the app: an index range of 100 entries.
  const check = new pg.Client({ connectionString: database.url });
  await check.connect();
  const middle = Math.ceil(N / PAGE_SIZE / 2);
  const { rows: plan } = await check.query(
    `EXPLAIN (ANALYZE, COSTS OFF) SELECT * FROM users WHERE app_token = $1 AND app_ord > $2 AND app_ord <= $3 ORDER BY app_ord`,
    [app.appToken, (middle - 1) * PAGE_SIZE, middle * PAGE_SIZE],
  );
  await check.end();
  console.log(`\nplan of the middle page's rows:\n${plan.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
} finally {
  await service.stop();
  await database.drop();
}
