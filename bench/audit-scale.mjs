#!/usr/bin/env node
// `pnpm bench:audit`: an audit page (interface 207) at scale. Seeds AUDIT_EVENTS events
// (default 10,000,000) with generate_series into a fresh database, spread over 20 apps and the
// three monthly partitions the service keeps ahead, starts the compiled account service on it,
// then asks 200 pages of 100 per filter, each from a random cursor, through the SDK (signed,
// as a client would) and prints p50 / p99 per filter. Never fails on timing.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { appRequire, freePort, root, sleep, withDatabase } from './lib/common.mjs';

const N = Number(process.env.AUDIT_EVENTS ?? 10_000_000);
const PAGES = Number(process.env.AUDIT_PAGES ?? 200);
const APPS = 20;
const server = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const pg = appRequire('account')('pg');
const { AccountClient } = await import(pathToFileURL(join(root, 'libs/client/dist/index.mjs')).href);

const app = { appToken: 'app-a0d17003', secret: 'audit-scale-secret-0123', aesKey: 'audit-scale', aesMode: 'gcm' };
const database = `bench_audit_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
await admin.end();
const url = withDatabase(server, database);

const port = await freePort();
const start = () =>
  spawn(process.execPath, [join(root, 'apps/account/dist/main.js')], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', APP_CREDENTIALS: JSON.stringify([app]), RATE_LIMIT_PER_MINUTE: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
async function ready() {
  for (let i = 0; i < 600; i++) {
    if (await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok, () => false)) return;
    await sleep(100);
  }
  throw new Error('account did not become ready');
}

// The schema and the partitions come from the service itself (migrations at start).
let service = start();
await ready();
service.kill('SIGTERM');
await new Promise((r) => service.once('exit', r));

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

service = start();
await ready();
const client = new AccountClient({ baseUrl: `http://127.0.0.1:${port}`, ...app, retries: 0 });
const filters = {
  'action=login_failed': { action: 'login_failed' },
  'operator=op3': { operator: 'op3' },
  'resource_type=user&resource_id=u123': { resource_type: 'user', resource_id: 'u123' },
  'no filter': {},
};
const rows = [];
for (const [name, filter] of Object.entries(filters)) {
  const ms = [];
  let events = 0;
  for (let i = 0; i < PAGES; i++) {
    const after = String(Math.floor(Math.random() * Number(max) * 0.95));
    const t = performance.now();
    const res = await client.auditEvents({ ...filter, after_event_id: after, page_size: '100' });
    ms.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    events += Number(res.body.count);
  }
  ms.sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(1);
  rows.push({ filter: name, 'events/page': (events / PAGES).toFixed(0), 'p50 ms': q(0.5), 'p99 ms': q(0.99), target: 'p99 < 50 ms', met: Number(q(0.99)) < 50 ? 'yes' : 'NO' });
}
service.kill('SIGTERM');
await new Promise((r) => service.once('exit', r));

console.log(`\naudit page at ${N.toLocaleString('en-US')} events (${APPS} apps, ${parts[0].n} monthly partitions); seeded in ${seedSeconds.toFixed(0)} s; ${PAGES} pages of 100 per filter from random cursors, signed HTTP through the SDK`);
console.table(rows);
const cleanup = new pg.Client({ connectionString: server });
await cleanup.connect();
await cleanup.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
await cleanup.end();
