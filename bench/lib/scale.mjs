// Shared parts of the scale benches (`pnpm bench:audit`, `pnpm bench:scale`): a fresh database,
// the compiled account service started on it (its migrations build the schema), timings.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { appRequire, freePort, root, sleep, withDatabase } from './common.mjs';

export const pg = appRequire('account')('pg');
export const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export async function accountClientClass() {
  return (await import(pathToFileURL(join(root, 'libs/client/dist/index.mjs')).href)).AccountClient;
}

async function onServer(sql) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A fresh database named `<prefix>_<time>`; its URL and a function dropping it. */
export async function scratchDatabase(prefix) {
  const name = `${prefix}_${Date.now().toString(36)}`;
  await onServer(`CREATE DATABASE ${name}`);
  return { url: withDatabase(serverUrl, name), drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * The compiled account service on `url` for the one app `app`, on a free port: `start()`
 * resolves once it is ready, `stop()` once it has exited. `options.env` adds variables,
 * `options.nodeArgs` flags of `node` (e.g. a `--require` of the bench).
 */
export async function accountService(url, app, options = {}) {
  const port = await freePort();
  let child;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async start() {
      child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(root, 'apps/account/dist/main.js')], {
        env: {
          ...process.env,
          DATABASE_URL: url,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          APP_CREDENTIALS: JSON.stringify([app]),
          RATE_LIMIT_PER_MINUTE: '0',
          ...options.env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      for (let i = 0; i < 600; i++) {
        if (
          await fetch(`http://127.0.0.1:${port}/health/ready`).then(
            (r) => r.ok,
            () => false,
          )
        )
          return;
        if (child.exitCode !== null) break;
        await sleep(100);
      }
      throw new Error('account did not become ready');
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Times `ask` `n` times; p50 / p99 in ms. `ask` throws on a wrong answer. */
export async function timed(n, ask) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await ask(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  return { p50: q(0.5), p99: q(0.99) };
}
