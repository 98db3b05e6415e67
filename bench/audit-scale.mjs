#!/usr/bin/env node
// `pnpm bench:audit`: an audit page (interface 207) at scale. Seeds AUDIT_EVENTS events
// (default 10,000,000) with generate_series into a fresh database, spread over 20 apps and the
// three monthly partitions the service keeps ahead, starts the compiled account service on it,
// then asks 200 pages of 100 per filter, each from a random cursor, through the SDK (signed,
// as a client would) and prints p50 / p99 per filter. Never fails on timing.
import { accountClientClass, accountService, pg, scratchDatabase, timed } from './lib/scale.mjs';

const N = Number(process.env.AUDIT_EVENTS ?? 10_000_000);
const PAGES = Number(process.env.AUDIT_PAGES ?? 200);
const APPS = 20;
const AccountClient = await accountClientClass();

const app = { appToken: 'app-a0d17003', secret: 'audit-scale-secret-0123', aesKey: 'audit-scale', aesMode: 'gcm' };
const database = await scratchDatabase('bench_audit');
const url = database.url;
const service = await accountService(url, app);

// The schema and the partitions come from the service itself (migrations at start).
await service.start();
await service.stop();

const db = new pg.Client({ connectionString: url });
await db.connect();
await db.query('SET synchronous_commit = off');
const t0 = Date.now();
const CHUNK = 1_000_000;
for (let from = 1; from <= N; from += CHUNK) {
  const to = Math.min(N, from + CHUNK - 1);
  await db.query(
    `INSERT INTO audit_events (event_time, app_token, action, resource_type, resource_id, operator, request_id, client_ip, result_code, changes)
     SELECT date_trunc('month', now()) + (i::float8 / $3) * interval '89 days',
            CASE WHEN i % ${APPS} = 3 THEN $4 ELSE 'app-' || (i % ${APPS}) END,
            (ARRAY['create','modify','login','login_failed','login_locked'])[1 + i % 5],
            (ARRAY['auth','auth_group','user'])[1 + (i / 7) % 3],
            'u' || (i % 10000), 'op' || (i % 10), 'req-' || i, '10.0.0.' || (i % 250), '90000',
            CASE WHEN i % 5 < 2 THEN '{"auth_name":{"to":"n"}}' ELSE '' END
       FROM generate_series($1::bigint, $2::bigint) AS i`,
    [from, to, N, app.appToken],
  );
  process.stdout.write(`seeded ${to.toLocaleString('en-US')} events (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
}
await db.query('ANALYZE audit_events');
const seedSeconds = (Date.now() - t0) / 1000;
const { rows: parts } = await db.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'audit_events'::regclass`);
const [{ max }] = (await db.query(`SELECT max(event_id)::bigint AS max FROM audit_events`)).rows;
await db.end();

await service.start();
const client = new AccountClient({ baseUrl: service.baseUrl, ...app, retries: 0 });
const filters = {
  'action=login_failed': { action: 'login_failed' },
  'operator=op3': { operator: 'op3' },
  'resource_type=user&resource_id=u123': { resource_type: 'user', resource_id: 'u123' },
  'no filter': {},
};
const rows = [];
for (const [name, filter] of Object.entries(filters)) {
  let events = 0;
  const { p50, p99 } = await timed(PAGES, async () => {
    const after = String(Math.floor(Math.random() * Number(max) * 0.95));
    const res = await client.auditEvents({ ...filter, after_event_id: after, page_size: '100' });
    if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    events += Number(res.body.count);
  });
  rows.push({ filter: name, 'events/page': (events / PAGES).toFixed(0), 'p50 ms': p50.toFixed(1), 'p99 ms': p99.toFixed(1), target: 'p99 < 50 ms', met: p99 < 50 ? 'yes' : 'NO' });
}
await service.stop();

console.log(`\naudit page at ${N.toLocaleString('en-US')} events (${APPS} apps, ${parts[0].n} monthly partitions); seeded in ${seedSeconds.toFixed(0)} s; ${PAGES} pages of 100 per filter from random cursors, signed HTTP through the SDK`);
console.table(rows);
await database.drop();
