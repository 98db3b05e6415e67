import { Client } from 'pg';

/** The outcome of {@link ensureStatementTimeout}. */
export type StatementTimeoutResult = { applied: 'unchanged' | 'set' } | { applied: 'failed'; reason: string };

/** The `ALTER ROLE` that makes `ms` the statement timeout of the connecting role in this database. */
export function statementTimeoutSql(database: string, ms: number): string {
  return `ALTER ROLE CURRENT_USER IN DATABASE ${quoteIdentifier(database)} SET statement_timeout = ${Math.trunc(ms)}`;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Makes `DATABASE_STATEMENT_TIMEOUT_MS` the setting of the service's role in its database
 * (`ALTER ROLE … IN DATABASE … SET statement_timeout`), so that every session the server opens
 * for it starts with the timeout, whatever opens the session: the service's pool directly, or a
 * transaction pooler (PgBouncer) whose server connections a request borrows for one
 * transaction. Nothing is sent per request or at connect (a startup parameter is refused by
 * PgBouncer; a `SET` would stay on a pooled connection another client then gets).
 *
 * Written only when it differs, over one short connection of its own before the pool opens.
 * Server connections a pooler opened before a change keep the old value until it renews them
 * (PgBouncer's `server_lifetime`, or `RECONNECT` on its console).
 * A role that may not alter itself (rare: an ordinary role may set its own defaults) is
 * reported, not fatal: the timeout is then what the database administrator set.
 */
export async function ensureStatementTimeout(url: string, ms: number, connectTimeoutMs: number): Promise<StatementTimeoutResult> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ database: string; configured: string[] | null }>(
      `SELECT current_database() AS "database",
              (SELECT s.setconfig FROM pg_db_role_setting s
                 JOIN pg_database d ON d.oid = s.setdatabase
                 JOIN pg_roles r ON r.oid = s.setrole
                WHERE d.datname = current_database() AND r.rolname = current_user) AS "configured"`,
    );
    const { database, configured } = rows[0];
    if ((configured ?? []).includes(`statement_timeout=${Math.trunc(ms)}`)) return { applied: 'unchanged' };
    try {
      // One message, one transaction, so one server connection even through a pooler: the
      // connection that ran the ALTER (opened before it, so without the new default) gets the
      // value too; any other session opened from now on starts with it.
      await client.query(`${statementTimeoutSql(database, ms)}; SET statement_timeout = ${Math.trunc(ms)}`);
      return { applied: 'set' };
    } catch (err) {
      return { applied: 'failed', reason: (err as Error).message };
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
