#!/usr/bin/env node
// `pnpm bench:audit-writes`: what the audit trail and the encryption at rest cost a write. The
// same user modification (a new certificate and mobile number) run against PostgreSQL two ways,
// with the service's own code for the added parts:
//   alone - BEGIN; UPDATE users …; COMMIT (the values as sent)
//   with  - both values encrypted by the service's PiiCipher (AES-256-GCM, associated data), the
//           changed fields masked by its modifiedFields, then BEGIN; UPDATE users …; the event
//           written by its AuditTrail (shared advisory lock + INSERT); COMMIT
// at the same concurrency, alternating rounds; prints writes/s and the ratio (goal >= 0.8). The
// HTTP, signature and validation work of a modify is the same both ways and is left out, so the
// ratio is the worst case: through the API the added share is smaller. Never fails on timing.
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
const dist = createRequire(join(root, 'apps/account/dist/main.js'));
const { PiiCipher } = dist('./pii/pii-cipher.js');
const { AuditTrail, modifiedFields } = dist('./audit/audit-trail.js');
const { AuditEventsRepository } = dist('./audit/audit-events.repository.js');

const APP = 'app-a0d17004';
const database = `bench_audit_writes_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
await admin.end();
const url = withDatabase(server, database);

// The schema from the service's own migrations.
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

const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
const ids = Array.from({ length: USERS }, (_, i) => `w${i}`);
await pool.query(
  `INSERT INTO users (app_token, user_login_id, user_id, user_name, user_type, is_domain_user)
   SELECT $1, 'w' || i, 'bench' || i, 'User ' || i, 'C', '0' FROM generate_series(0, ${USERS - 1}) AS i`,
  [APP],
);

const cipher = new PiiCipher([{ id: 'k1', key: Buffer.alloc(32, 7) }]);
// The repository's writes run on the manager given (here a client), never on its own connection.
const trail = new AuditTrail(new AuditEventsRepository(null));
const UPDATE = `UPDATE users SET cert_id = $3, user_mobile = $4, update_time = now() WHERE app_token = $1 AND user_login_id = $2`;

let n = 0;
const next = () => {
  n++;
  return { id: ids[n % USERS], cert: `11010519491231${String(n % 10000).padStart(4, '0')}`, mobile: `1380000${String(n % 10000).padStart(4, '0')}` };
};

async function alone(client) {
  const w = next();
  await client.query('BEGIN');
  await client.query(UPDATE, [APP, w.id, w.cert, w.mobile]);
  await client.query('COMMIT');
}

async function withTrail(client) {
  const w = next();
  const cert = cipher.encrypt(APP, w.id, 'cert_id', w.cert);
  const mobile = cipher.encrypt(APP, w.id, 'user_mobile', w.mobile);
  const changes = modifiedFields({ cert_id: null, user_mobile: null }, { cert_id: w.cert, user_mobile: w.mobile });
  await client.query('BEGIN');
  await client.query(UPDATE, [APP, w.id, cert, mobile]);
  await trail.record({ query: (sql, params) => client.query(sql, params).then((r) => r.rows) }, { appToken: APP, action: 'modify', resourceType: 'user', resourceId: w.id, resultCode: '90000', changes });
  await client.query('COMMIT');
}

async function measure(write) {
  const until = Date.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const client = await pool.connect();
      try {
        while (Date.now() < until) {
          await write(client);
          done++;
        }
      } finally {
        client.release();
      }
    }),
  );
  return done / SECONDS;
}

await measure(alone); // warm-up
const results = { alone: [], with: [] };
for (let r = 0; r < ROUNDS; r++) {
  results.alone.push(await measure(alone));
  results.with.push(await measure(withTrail));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const a = median(results.alone);
const w = median(results.with);
const [{ events }] = (await pool.query(`SELECT count(*)::int AS events FROM audit_events`)).rows;
await pool.end();

console.log(`\nuser modify (certificate + mobile), ${CONCURRENCY} connections, ${ROUNDS} alternating rounds of ${SECONDS} s, medians; ${events.toLocaleString('en-US')} events written`);
console.table([
  { write: 'UPDATE alone', 'writes/s': a.toFixed(0), rounds: results.alone.map((x) => x.toFixed(0)).join(' / ') },
  { write: 'encrypted + audit event', 'writes/s': w.toFixed(0), rounds: results.with.map((x) => x.toFixed(0)).join(' / ') },
]);
console.log(`ratio ${(w / a).toFixed(2)} (goal >= 0.8): ${w / a >= 0.8 ? 'met' : 'NOT met'}`);

const cleanup = new pg.Client({ connectionString: server });
await cleanup.connect();
await cleanup.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
await cleanup.end();
