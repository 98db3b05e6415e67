import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './net';

/** The newest PostgreSQL of the machine (`/usr/lib/postgresql/<version>/bin`). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin/pg_ctl'))) return join(root, v, 'bin');
  throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
}

function postgresIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A PostgreSQL server of the suite's own (initdb in a temp dir, a free port, `pg_ctl`), which
 * a test may stop and start again. As root, the binaries run as the `postgres` OS user, who
 * owns the temp dir.
 */
export class PrivatePostgres {
  private running = false;
  private readonly bin = binDir();
  private readonly ids = postgresIds();

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust authentication). */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async create(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'reliability-pg-'));
    const pg = new PrivatePostgres(dir, await freePort());
    if (pg.ids) chownSync(dir, pg.ids.uid, pg.ids.gid);
    pg.run('initdb', ['-D', pg.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    pg.start();
    return pg;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  private run(tool: string, args: string[]): string {
    const bin = join(this.bin, tool);
    const [cmd, argv] = this.ids ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
    const res = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
    if (res.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${res.stderr || res.stdout || res.error?.message}`);
    return res.stdout;
  }

  start(): void {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200`;
    this.run('pg_ctl', ['-D', this.data, '-o', options, '-l', join(this.dir, 'server.log'), '-w', '-t', '30', 'start']);
    this.running = true;
  }

  /** `pg_ctl stop -m immediate`: the server dies without a checkpoint, as in a crash. */
  stopImmediate(): void {
    if (!this.running) return;
    this.run('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
    this.running = false;
  }

  stop(): void {
    if (!this.running) return;
    this.run('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop']);
    this.running = false;
  }

  destroy(): void {
    try {
      this.stop();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
