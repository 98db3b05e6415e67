import { spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './net';

/** The newest PostgreSQL of the machine (`/usr/lib/postgresql/<version>/bin`), with pg_basebackup. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin/pg_basebackup'))) return join(root, v, 'bin');
  throw new Error('no PostgreSQL binaries (with pg_basebackup) under /usr/lib/postgresql');
}

const asRoot = process.getuid?.() === 0;
function ids(): { uid: number; gid: number } | undefined {
  if (!asRoot) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Runs a program as the `postgres` OS user when we are root (the server refuses root). */
function run(program: string, args: string[], timeout = 120_000): string {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  const res = spawnSync(cmd, argv, { encoding: 'utf8', timeout });
  if (res.status !== 0) throw new Error(`${program} ${args.join(' ')} failed: ${res.stderr || res.stdout || res.error?.message}`);
  return res.stdout;
}

/**
 * The point-in-time recovery procedure of docs/operations.md ("Backups"), on servers of the
 * suite's own: a server archiving its WAL (`archive_command` copying each segment to an archive
 * directory), base backups with `pg_basebackup`, and a restore of a base backup to a new server
 * replaying the archive up to a target time.
 */
export class ArchivingPostgres {
  private readonly bin = binDir();
  private running = false;

  private constructor(
    /** Holds `data`, `archive`, `backups`, the logs. */
    readonly dir: string,
    readonly port: number,
    private readonly data: string,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  get archive(): string {
    return join(this.dir, 'archive');
  }

  static async create(): Promise<ArchivingPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'reliability-pitr-'));
    const owner = ids();
    for (const sub of ['archive', 'backups']) mkdirSync(join(dir, sub));
    if (owner) for (const d of [dir, join(dir, 'archive'), join(dir, 'backups')]) chownSync(d, owner.uid, owner.gid);
    const pg = new ArchivingPostgres(dir, await freePort(), join(dir, 'data'));
    run(join(pg.bin, 'initdb'), ['-D', pg.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    appendFileSync(
      join(pg.data, 'postgresql.conf'),
      [
        '',
        'wal_level = replica',
        'archive_mode = on',
        // copy, never overwrite an archived segment (the documented command, test -f first)
        `archive_command = 'test ! -f ${pg.archive}/%f && cp %p ${pg.archive}/%f'`,
        'archive_timeout = 60',
        "listen_addresses = '127.0.0.1'",
        "unix_socket_directories = ''",
        '',
      ].join('\n'),
    );
    pg.start();
    return pg;
  }

  /** A restored copy of a base backup, replaying the archive up to `targetTime`, started as a new server on its own port. */
  static async restore(backup: string, archive: string, targetTime: string): Promise<ArchivingPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'reliability-pitr-restored-'));
    const owner = ids();
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const pg = new ArchivingPostgres(dir, await freePort(), join(dir, 'data'));
    run('cp', ['-a', backup, pg.data]);
    appendFileSync(
      join(pg.data, 'postgresql.auto.conf'),
      [
        '',
        `restore_command = 'cp ${archive}/%f %p'`,
        `recovery_target_time = '${targetTime}'`,
        "recovery_target_action = 'promote'",
        // the restored server must not write into the original's archive
        'archive_mode = off',
        '',
      ].join('\n'),
    );
    writeFileSync(join(pg.data, 'recovery.signal'), '');
    if (owner) chownSync(join(pg.data, 'recovery.signal'), owner.uid, owner.gid);
    pg.start();
    // Recovery replays the archive, then promotes: wait until the server accepts writes.
    for (let i = 0; i < 600; i++) {
      const inRecovery = await pg.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r').catch(() => [{ r: true }]);
      if (!inRecovery[0]!.r) return pg;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the restored server did not finish its recovery in 60 s (log in ${dir})`);
  }

  start(): void {
    const log = join(this.dir, 'server.log');
    try {
      run(join(this.bin, 'pg_ctl'), ['-D', this.data, '-o', `-p ${this.port}`, '-l', log, '-w', '-t', '60', 'start']);
    } catch (err) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-5).join('\n') : '';
      throw new Error(`${(err as Error).message}\n${tail}`);
    }
    this.running = true;
  }

  stop(): void {
    if (!this.running) return;
    run(join(this.bin, 'pg_ctl'), ['-D', this.data, '-m', 'fast', '-w', 'stop']);
    this.running = false;
  }

  destroy(): void {
    try {
      this.stop();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  async query<T>(sql: string, params: unknown[] = [], database = 'postgres'): Promise<T[]> {
    const url = new URL(this.url);
    url.pathname = `/${database}`;
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** `pg_basebackup` (plain format, WAL from the archive, fast checkpoint) into `backups/<name>`; returns its directory. */
  baseBackup(name: string): string {
    const to = join(this.dir, 'backups', name);
    run(join(this.bin, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(this.port),
      '-U',
      'postgres',
      '-D',
      to,
      '-Fp',
      '-X',
      'none',
      '-c',
      'fast',
    ]);
    return to;
  }

  /** Closes the current WAL segment and waits until the archive has it (what `archive_timeout` does every 60 s). */
  async archiveNow(): Promise<void> {
    const [{ segment }] = await this.query<{ segment: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS segment');
    for (let i = 0; i < 300; i++) {
      if (existsSync(join(this.archive, segment))) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`segment ${segment} not archived in 30 s`);
  }
}
