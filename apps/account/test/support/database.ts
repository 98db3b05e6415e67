import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The PostgreSQL server of the tests: `DATABASE_URL`, as in CI, or the local default. */
export function serverUrl(): string {
  return process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** The URL of another database on the same server. */
export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

async function withAdmin<T>(base: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: base });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates a fresh, randomly named database on the server of `base`; returns its name and URL. */
export async function createTestDatabase(base = serverUrl(), prefix = 'account_e2e'): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(base, (c) => c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`));
  return { name, url: databaseUrl(base, name) };
}

/** Drops a test database, closing whatever connections are left. */
export async function dropTestDatabase(name: string, base = serverUrl()): Promise<void> {
  await withAdmin(base, (c) => c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`));
}
