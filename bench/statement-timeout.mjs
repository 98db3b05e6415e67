// `node bench/statement-timeout.mjs`: the per-request cost of the two ways to keep a statement
// timeout through a transaction pooler (docs/operations.md "Connection pooler"), through a
// private PgBouncer (`pool_mode = transaction`) in front of `DATABASE_URL`'s server:
//   role     - the role's setting in the database (what the service does): the request's
//              statement alone;
//   set-local - `BEGIN; SET LOCAL statement_timeout = …` (one message), the statement, `COMMIT`.
// Each round runs N sequential one-row lookups of each kind, alternating; prints the median
// time per lookup of each round and the ratio. Requires the Debian package pgbouncer.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRequire, freePort } from './lib/common.mjs';

const { Pool } = appRequire('account')('pg');
const server = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
const N = Number(process.env.BENCH_LOOKUPS || 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);

const dir = mkdtempSync(join(tmpdir(), 'bench-pgbouncer-'));
chmodSync(dir, 0o777);
const port = await freePort();
const user = decodeURIComponent(server.username || 'postgres');
writeFileSync(
  join(dir, 'pgbouncer.ini'),
  `[databases]\n* = host=${server.hostname} port=${server.port || 5432}\n[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = ${port}\nunix_socket_dir =\nauth_type = trust\nauth_file = ${join(dir, 'users.txt')}\npool_mode = transaction\ndefault_pool_size = 4\nlogfile = ${join(dir, 'log')}\n`,
);
writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
const bouncer = spawn('pgbouncer', [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
for (let i = 0; i < 100; i++) {
  const up = await new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });
  if (up) break;
  await new Promise((r) => setTimeout(r, 50));
}

const pool = new Pool({ connectionString: `postgres://${user}@127.0.0.1:${port}${server.pathname}`, max: 4 });
const lookup = `SELECT c.relname, c.reltuples FROM pg_class c WHERE c.oid = $1::oid`;
const kinds = {
  role: async (c) => c.query(lookup, [1259]),
  'set-local': async (c) => {
    await c.query('BEGIN; SET LOCAL statement_timeout = 15000');
    await c.query(lookup, [1259]);
    await c.query('COMMIT');
  },
};

async function round(kind) {
  const client = await pool.connect();
  try {
    const times = [];
    for (let i = 0; i < N; i++) {
      const t = process.hrtime.bigint();
      await kinds[kind](client);
      times.push(Number(process.hrtime.bigint() - t) / 1e3);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  } finally {
    client.release();
  }
}

try {
  await round('role');
  await round('set-local');
  const ratios = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const role = await round('role');
    const setLocal = await round('set-local');
    ratios.push(setLocal / role);
    console.log(`round ${r}: role ${role.toFixed(0)} µs, set-local ${setLocal.toFixed(0)} µs per lookup (x${(setLocal / role).toFixed(2)})`);
  }
  ratios.sort((a, b) => a - b);
  console.log(`median ratio set-local / role: x${ratios[Math.floor(ratios.length / 2)].toFixed(2)} (${N} lookups per round, ${ROUNDS} rounds)`);
} finally {
  await pool.end();
  bouncer.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
