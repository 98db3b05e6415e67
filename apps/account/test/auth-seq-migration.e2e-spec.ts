import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { AuthsAndGroups1767225600000 } from '../src/database/migrations/1767225600000-auths-and-groups';
import { UsersAndLogin1767225700000 } from '../src/database/migrations/1767225700000-users-and-login';
import { AuthSeqPerApp1767225900000 } from '../src/database/migrations/1767225900000-auth-seq-per-app';
import { createTestDatabase, dropTestDatabase } from './support/database';

describe('migration AuthSeqPerApp1767225900000 on a database with auths', () => {
  let database: { name: string; url: string };
  let client: Client;
  /** The part of a QueryRunner the migrations use. */
  let runner: QueryRunner;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
    runner = { query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows } as unknown as QueryRunner;
    await new AuthsAndGroups1767225600000().up(runner);
    await new UsersAndLogin1767225700000().up(runner);
  });
  afterAll(async () => {
    await client?.end();
    if (database) await dropTestDatabase(database.name);
  });

  const insert = (app: string, id: string) =>
    client.query(`INSERT INTO auths (app_token, auth_id, auth_name) VALUES ($1, $2, 'x')`, [app, id]);
  const numbers = async () =>
    (
      await client.query(`SELECT app_token || ':' || auth_id AS id, auth_seq_id::int AS seq FROM auths ORDER BY app_token, auth_seq_id`)
    ).rows.map((r: { id: string; seq: number }) => `${r.id}=${r.seq}`);

  it('keeps the numbers given, goes on from each app’s highest, and numbers a new app from 1', async () => {
    // One global sequence: a1=1, b1=2, a2=3.
    await insert('app-a', 'a1');
    await insert('app-b', 'b1');
    await insert('app-a', 'a2');
    await new AuthSeqPerApp1767225900000().up(runner);
    expect(await numbers()).toEqual(['app-a:a1=1', 'app-a:a2=3', 'app-b:b1=2']);
    await insert('app-a', 'a3');
    await insert('app-b', 'b2');
    await insert('app-c', 'c1');
    expect(await numbers()).toEqual(['app-a:a1=1', 'app-a:a2=3', 'app-a:a3=4', 'app-b:b1=2', 'app-b:b2=3', 'app-c:c1=1']);
  });

  it('goes back to one global sequence, distinct numbers, when reverted', async () => {
    await new AuthSeqPerApp1767225900000().down(runner);
    await insert('app-c', 'c2');
    const seqs = (await client.query(`SELECT auth_seq_id::int AS seq FROM auths`)).rows.map((r: { seq: number }) => r.seq);
    expect(new Set(seqs).size).toBe(7);
  });
});
