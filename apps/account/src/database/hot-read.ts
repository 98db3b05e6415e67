import { DataSource, QueryFailedError } from 'typeorm';

/** What the fast path needs of `pg`'s pool and client (TypeORM's driver holds them). */
interface PgClient {
  query(text: string, values: readonly unknown[]): Promise<{ rows: unknown[] }>;
}
interface PgPoolClient extends PgClient {
  release(err?: Error | boolean): void;
}
interface PgPool {
  connect(): Promise<PgPoolClient>;
}

/**
 * Fast path "hot read" (listed in libs/http/src/fast-path/README.md): one read-only statement
 * on the pool of TypeORM's PostgreSQL driver, without TypeORM's query runner.
 *
 * Instead of `dataSource.query(sql, params)`, which makes a query runner per statement (its
 * broadcaster, `BeforeQuery`/`AfterQuery` events, logger calls, timing and a `QueryResult`)
 * around the same `pg` calls. The calls and their failures are TypeORM's: a connection taken
 * with `pool.connect()` (whose failure is thrown as the driver's error, as TypeORM does), one
 * unnamed parameterised statement (no named prepared statement: a session state a transaction
 * pooler breaks, docs/operations.md), its failure thrown as TypeORM's `QueryFailedError`, the
 * connection released without an error either way. The service has no TypeORM subscriber and
 * no query logging, so nothing listens to what is skipped. Reads only: writes, transactions
 * and migrations stay on TypeORM. Gain: docs/performance.md ("A read does only a read's work").
 */
export class HotReads {
  constructor(private readonly dataSource: DataSource) {}

  /** The rows of `sql` (a SELECT), as `dataSource.query` answers them. */
  async rows<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    const pool = (this.dataSource.driver as unknown as { master?: PgPool }).master;
    // Before the driver has connected (never once the application is up), or a data source
    // whose `query` runs elsewhere (the SQL recorder's transaction): TypeORM's way.
    if (!pool || this.dataSource.query !== DataSource.prototype.query)
      return (await this.dataSource.query(sql, params as unknown[])) as T[];
    const client = await pool.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } catch (err) {
      throw new QueryFailedError(sql, params as unknown[], err as Error);
    } finally {
      client.release();
    }
  }
}
