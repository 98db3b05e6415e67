import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';

/** The machine's PostgreSQL (`DATABASE_URL`, as in CI, or the local default). */
export function serverUrl(): string {
  return process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

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

/** A fresh randomly named database on the server of `base`, dropped by `drop()`. */
export interface TestDatabase {
  name: string;
  url: string;
  /** A small pool on it, for assertions on what was stored. */
  pool: Pool;
  drop(): Promise<void>;
}

export async function createTestDatabase(base = serverUrl()): Promise<TestDatabase> {
  const name = `reliability_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(base, (c) => c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`));
  const url = databaseUrl(base, name);
  const pool = new Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined); // a test may stop the server under it
  return {
    name,
    url,
    pool,
    async drop() {
      await pool.end().catch(() => undefined);
      await withAdmin(base, (c) => c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`));
    },
  };
}

/**
 * Tables whose rows change on purpose when a request is refused: the nonces a signed request
 * claims (refused or not, so that it cannot be replayed), the failed-login counters, and the
 * audit trail with its monthly partitions (every login attempt is an event, refused or not:
 * docs/contract.md §10).
 */
// job_leases: renewed by the instances on their own; admin_sessions: touched by every admin request.
export const SIDE_EFFECT_TABLES = ['request_nonces', 'login_failures', 'schema_migrations', 'job_leases', 'admin_sessions'];
const SIDE_EFFECT_TABLE_PREFIX = 'audit_events';

const tableLists = new WeakMap<Pool, Promise<string[]>>();

const appTableLists = new WeakMap<Pool, Promise<string[]>>();

/** The business tables; with `ofApps`, only those keyed by app_token (the control plane's operators are no app's). */
function businessTables(pool: Pool, ofApps = false): Promise<string[]> {
  const cache = ofApps ? appTableLists : tableLists;
  let tables = cache.get(pool);
  if (!tables) {
    tables = pool
      .query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables t
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND NOT (table_name = ANY($1))
            AND table_name NOT LIKE '${SIDE_EFFECT_TABLE_PREFIX}%'
            AND (NOT $2 OR EXISTS (SELECT 1 FROM information_schema.columns c
                                    WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'app_token'))
          ORDER BY table_name`,
        [SIDE_EFFECT_TABLES, ofApps],
      )
      .then((r) => r.rows.map((t) => t.table_name));
    cache.set(pool, tables);
  }
  return tables;
}

/**
 * One digest of every business table of the account schema (every table but the
 * side-effect ones), or of one app's rows only (in every table keyed by app_token).
 */
export async function accountDigest(pool: Pool, appToken?: string): Promise<string> {
  const tables = await businessTables(pool, appToken !== undefined);
  const where = appToken === undefined ? '' : ' WHERE r.app_token = $1';
  const parts = tables.map(
    (t) => `SELECT '${t}' AS t, md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS d FROM "${t}" r${where}`,
  );
  const { rows } = await pool.query<{ t: string; d: string }>(parts.join(' UNION ALL '), appToken === undefined ? [] : [appToken]);
  return rows
    .sort((a, b) => a.t.localeCompare(b.t))
    .map((r) => `${r.t}:${r.d}`)
    .join(',');
}
