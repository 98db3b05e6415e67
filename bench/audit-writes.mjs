#!/usr/bin/env node
// `pnpm bench:audit-writes`: what the audit trail and the encryption at rest cost a write. The
// same user modification (a new certificate and mobile number) run against PostgreSQL through
// the service's own compiled code, at the same concurrency in alternating rounds:
//   alone    - the UPDATE of the two columns, values as sent, one statement (its own transaction):
//              the write without the trail and the encryption
//   service  - what a modify writes: both values encrypted by the service's PiiCipher, the changed
//              fields masked by its modifiedFields, the event row made by its AuditTrail, then its
//              UsersRepository.modify: one statement (a data-modifying WITH) that updates the row
//              and inserts the event under the shared advisory lock
//   previous - the same, written the way the service did before: BEGIN; UPDATE; the event's
//              INSERT (AuditEventsRepository.insert); COMMIT
// and, to show where the time goes, two parts of `service`: the encrypted UPDATE alone, and the
// service's statement without the advisory lock (its CTE removed from the same text).
// prints writes/s, mean latency per write and the ratios to `alone` (goal >= 0.8). The HTTP,
// signature, validation and read-before-write work of a modify is the same both ways and left
// out, so this is the worst case of the ratio. Never fails on timing.
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { appRequire, freePort, root, sleep, withDatabase } from './lib/common.mjs';

const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const USERS = 500;
const server = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const pg = appRequire('account')('pg');
const { DataSource } = appRequire('account')('typeorm');
const dist = createRequire(join(root, 'apps/account/dist/main.js'));
const { PiiCipher } = dist('./pii/pii-cipher.js');
const { AuditTrail, modifiedFields } = dist('./audit/audit-trail.js');
const { AuditEventsRepository } = dist('./audit/audit-events.repository.js');
const { UsersRepository } = dist('./users/users.repository.js');
const { dataSourceOptions } = dist('./database/database.options.js');
const { ENTITIES } = dist('./entities.js');

const APP = 'app-a0d17004';
const database = `bench_audit_writes_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
await admin.end();
const url = withDatabase(server, database);

// The schema from the service's own migrations (and its audit partitions).
const port = await freePort();
const service = spawn(process.execPath, [join(root, 'apps/account/dist/main.js')], {
  env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (let i = 0; ; i++) {
  if (await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok, () => false)) break;
  if (i > 600) throw new Error('account did not become ready');
  await sleep(100);
}
service.kill('SIGTERM');
await new Promise((r) => service.once('exit', r));

// The service's own connection settings, one pooled connection per concurrent writer.
const ds = new DataSource({
  ...dataSourceOptions({ url, DATABASE_POOL_SIZE: CONCURRENCY, DATABASE_CONNECT_TIMEOUT_MS: 10_000, DATABASE_STATEMENT_TIMEOUT_MS: 0 }),
  entities: ENTITIES,
});
await ds.initialize();
const ids = Array.from({ length: USERS }, (_, i) => `w${i}`);
await ds.query(
  `INSERT INTO users (app_token, user_login_id, user_id, user_name, user_type, is_domain_user)
   SELECT $1, 'w' || i, 'bench' || i, 'User ' || i, 'C', '0' FROM generate_series(0, ${USERS - 1}) AS i`,
  [APP],
);

const cipher = new PiiCipher([{ id: 'k1', key: Buffer.alloc(32, 7) }]);
const events = new AuditEventsRepository(ds);
const trail = new AuditTrail(events);
const users = new UsersRepository(ds);
const UPDATE = `UPDATE users SET cert_id = $3, user_mobile = $4, update_time = now() WHERE app_token = $1 AND user_login_id = $2`;

let n = 0;
const next = () => {
  n++;
  return { id: ids[n % USERS], cert: `11010519491231${String(n % 10000).padStart(4, '0')}`, mobile: `1380000${String(n % 10000).padStart(4, '0')}` };
};

/** What the service computes before writing: the encrypted values and the event's row. */
function prepared(w) {
  const changes = modifiedFields({ cert_id: null, user_mobile: null }, { cert_id: w.cert, user_mobile: w.mobile });
  return {
    cert: cipher.encrypt(APP, w.id, 'cert_id', w.cert),
    mobile: cipher.encrypt(APP, w.id, 'user_mobile', w.mobile),
    event: trail.rowOf({ appToken: APP, action: 'modify', resourceType: 'user', resourceId: w.id, resultCode: '90000', changes }),
  };
}

/** The service's statement with its shared advisory lock left out (the lock's cost). */
function withoutLock(sql) {
  // the trail's lock and the app's: "audit_lock" AS (SELECT pg_advisory_xact_lock_shared(N), pg_advisory_xact_lock_shared(N, hashtext($k::text))),
  const lock = /"audit_lock" AS \(SELECT pg_advisory_xact_lock_shared\(\d+\)(, pg_advisory_xact_lock_shared\(\d+, hashtext\(\$\d+::text\)\))?\),/;
  if (!lock.test(sql)) throw new Error('the audit lock CTE of the service statement changed: update bench/audit-writes.mjs');
  return sql.replace(lock, '').replace('FROM "audit_lock"', '');
}

const WRITES = {
  async alone() {
    const w = next();
    await ds.query(UPDATE, [APP, w.id, w.cert, w.mobile]);
  },
  async service() {
    const w = next();
    const p = prepared(w);
    if (!(await users.modify(APP, w.id, { certId: p.cert, userMobile: p.mobile }, {}, p.event, ds.manager))) throw new Error('not modified');
  },
  async encrypted() {
    const w = next();
    const p = prepared(w);
    await ds.query(UPDATE, [APP, w.id, p.cert, p.mobile]);
  },
  async unlocked() {
    const w = next();
    const p = prepared(w);
    // The repository's own statement text, caught on its way to the database, minus the lock.
    const em = { query: (sql, params) => ds.query(withoutLock(sql), params) };
    if (!(await users.modify(APP, w.id, { certId: p.cert, userMobile: p.mobile }, {}, p.event, em))) throw new Error('not modified');
  },
  async previous() {
    const w = next();
    const p = prepared(w);
    await ds.transaction(async (em) => {
      await em.query(UPDATE, [APP, w.id, p.cert, p.mobile]);
      await events.insert(p.event, em);
    });
  },
};

async function measure(write) {
  const until = Date.now() + SECONDS * 1000;
  let done = 0;
  let busy = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const t = process.hrtime.bigint();
        await write();
        busy += Number(process.hrtime.bigint() - t) / 1e6;
        done++;
      }
    }),
  );
  return { rate: done / SECONDS, ms: busy / done };
}

await measure(WRITES.alone); // warm-up
await measure(WRITES.service);
const results = Object.fromEntries(Object.keys(WRITES).map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) for (const [name, write] of Object.entries(WRITES)) results[name].push(await measure(write));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (name) => median(results[name].map((x) => x.rate));
const ms = (name) => median(results[name].map((x) => x.ms));
const [{ count }] = await ds.query(`SELECT count(*)::int AS count FROM audit_events`);
await ds.destroy();

const LABELS = {
  alone: 'UPDATE alone (1 statement)',
  service: 'service: encrypted, UPDATE + event in 1 statement',
  encrypted: 'part: the encrypted UPDATE alone',
  unlocked: 'part: the service statement without the advisory lock',
  previous: 'previous: encrypted, BEGIN; UPDATE; event INSERT; COMMIT',
};
console.log(`\nuser modify (certificate + mobile), ${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, medians; ${count.toLocaleString('en-US')} events written`);
console.table(
  Object.keys(WRITES).map((name) => ({
    write: LABELS[name],
    'writes/s': rate(name).toFixed(0),
    'ms/write': ms(name).toFixed(2),
    'ratio to alone': (rate(name) / rate('alone')).toFixed(2),
    rounds: results[name].map((x) => x.rate.toFixed(0)).join(' / '),
  })),
);
const ratio = rate('service') / rate('alone');
console.log(`ratio ${ratio.toFixed(2)} (goal >= 0.8): ${ratio >= 0.8 ? 'met' : 'NOT met'}; the previous write path: ${(rate('previous') / rate('alone')).toFixed(2)}`);

const cleanup = new pg.Client({ connectionString: server });
await cleanup.connect();
await cleanup.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
await cleanup.end();
