// The run's own PostgreSQL database and Redis key prefix, removed at the end of the run.
import { appRequire, withDatabase } from './common.mjs';

const pg = appRequire('account')('pg');

export class BenchDatabase {
  constructor(adminUrl, name) {
    this.adminUrl = adminUrl;
    this.name = name;
    this.url = withDatabase(adminUrl, name);
    this.created = false;
  }

  async admin(sql) {
    const client = new pg.Client({ connectionString: this.adminUrl });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async create() {
    await this.admin(`CREATE DATABASE "${this.name}"`);
    this.created = true;
  }

  /** A pool on the run's database (for seeding and for the harness's own checks). */
  get pool() {
    // The service sets a statement timeout for its role in this database; seeding a million rows
    // is the harness's own work and may take longer on a slow host.
    this._pool ??= new pg.Pool({ connectionString: this.url, max: 4, options: '-c statement_timeout=0' });
    return this._pool;
  }

  async query(sql, params) {
    return this.pool.query(sql, params);
  }

  async drop() {
    await this._pool?.end();
    this._pool = undefined;
    if (!this.created) return;
    await this.admin(`DROP DATABASE IF EXISTS "${this.name}" WITH (FORCE)`);
    this.created = false;
  }
}

export class BenchRedis {
  constructor(url, prefix) {
    this.url = url;
    this.prefix = prefix;
  }

  async connect() {
    const mod = appRequire('location')('ioredis');
    const Redis = mod.default ?? mod.Redis ?? mod;
    this.client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await this.client.connect();
  }

  /** The run's keys (SCAN, never KEYS). */
  async keys(limit = 10_000) {
    const found = [];
    let cursor = '0';
    do {
      const [next, batch] = await this.client.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 1000);
      cursor = next;
      found.push(...batch);
    } while (cursor !== '0' && found.length < limit);
    return found;
  }

  async cleanup() {
    if (!this.client) return;
    let cursor = '0';
    do {
      const [next, batch] = await this.client.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (batch.length > 0) await this.client.unlink(...batch);
    } while (cursor !== '0');
    this.client.disconnect();
  }
}
