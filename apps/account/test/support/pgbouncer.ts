import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Daemon, freePort } from '@geoaccount/testing';

const CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'];

/** Options of {@link PrivatePgBouncer.start}. */
export interface PgBouncerOptions {
  /** The PostgreSQL server behind it (`postgres://user@host:port/...`, trust authentication). */
  serverUrl: string;
  /** Server connections per (database, user); default 20. */
  poolSize?: number;
}

/**
 * A PgBouncer of a test's own (Debian's `pgbouncer`) in `pool_mode = transaction`, on a free
 * port of 127.0.0.1, in front of `serverUrl`: every database of that server under the same name.
 * As root it runs as the user `postgres` (PgBouncer refuses root).
 */
export class PrivatePgBouncer {
  private daemon?: Daemon;

  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly binary: string,
    private readonly user: string,
  ) {}

  static async start(options: PgBouncerOptions): Promise<PrivatePgBouncer> {
    const binary = CANDIDATES.find((p) => existsSync(p));
    if (!binary) throw new Error(`pgbouncer not found (looked in ${CANDIDATES.join(', ')}): install the Debian package pgbouncer`);
    const server = new URL(options.serverUrl);
    const user = decodeURIComponent(server.username || 'postgres');
    const dir = mkdtempSync(join(tmpdir(), 'account-pgbouncer-'));
    chmodSync(dir, 0o777);
    const port = await freePort();
    const conf = [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 20}`,
      'max_client_conn = 1000',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n');
    writeFileSync(join(dir, 'pgbouncer.ini'), conf, { mode: 0o644 });
    writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o644 });
    const bouncer = new PrivatePgBouncer(dir, port, binary, user);
    try {
      await bouncer.restart();
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    return bouncer;
  }

  /** The URL of `database` through this PgBouncer. */
  url(database: string): string {
    return `postgres://${encodeURIComponent(this.user)}@127.0.0.1:${this.port}/${encodeURIComponent(database)}`;
  }

  /** What PgBouncer logged (e.g. a refused startup parameter). */
  log(): string {
    const file = join(this.dir, 'pgbouncer.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  async restart(): Promise<void> {
    const asRoot = process.getuid?.() === 0;
    const args = [...(asRoot ? ['-u', 'postgres'] : []), join(this.dir, 'pgbouncer.ini')];
    this.daemon = await Daemon.start('pgbouncer', this.binary, args, [this.port], () =>
      this.log().trim().split('\n').slice(-3).join(' | '),
    );
  }

  async stop(): Promise<void> {
    const daemon = this.daemon;
    this.daemon = undefined;
    await daemon?.stop();
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
