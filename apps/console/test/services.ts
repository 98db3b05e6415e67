import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';

export const ROOT = join(__dirname, '../../..');
export const GCM_APP = { appToken: 'app-c0501e01', secret: 'console-secret-gcm-0123', aesKey: 'console-aes-gcm', aesMode: 'gcm' } as const;
export const ECB_APP = { appToken: 'app-c0501e02', secret: 'console-secret-ecb-0123', aesKey: 'console-aes-ecb', aesMode: 'ecb' } as const;

/** The bootstrap token of the operator `admin` and the internal token of the runs. */
export const ADMIN_TOKEN = 'console-admin-token-0123456789abcdef-01';
export const INTERNAL_TOKEN = 'console-internal-token-0123456789abcdef';

/** Fills Sign in and submits it. */
export async function signIn(page: import('playwright-core').Page, login: string, password: string): Promise<void> {
  await page.getByLabel('Login', { exact: true }).fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export interface Service {
  url: string;
  child: ChildProcess;
}

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** A compiled service (`apps/<kind>/dist/main.js`) as a child process, once its readiness answers. */
export async function startService(kind: 'account' | 'location', port: number, env: Record<string, string>): Promise<Service> {
  const child = spawn(process.execPath, [join(ROOT, `apps/${kind}/dist/main.js`)], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', APP_CREDENTIALS: JSON.stringify([GCM_APP, ECB_APP]), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${kind} exited with ${child.exitCode}`);
    if (await fetch(`${url}/health/ready`).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${kind} did not become ready`);
}

const serverUrl = () => process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database for one run; returns its URL and a function that drops it. */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: serverUrl() });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
