/**
 * Keys that cannot be lost track of (docs/contract.md §6 90503, §11): data written under the
 * development key, then the service started with a real PII_KEYS ring that lacks it. The
 * instance refuses readiness naming the missing key id; a read of such a row answers 503
 * 90503 naming no data (the log names the row and key id); `rotate-pii
 * --from-development-key` moves the data to the real ring.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { buildService } from '@geoaccount/testing';
import { DataSource } from 'typeorm';
import { PII_KEY_COLUMNS, keyIdsInUse, piiKeyIndexName } from '../src/pii/pii-key-columns';
import { rotationKeys } from '../src/pii/rotate-pii';
import { APP_A, type AccountHarness, type RunningAccountApp, listenAccountApp, startAccountHarness } from './support/account-harness';
import { NEW_USER } from './support/user-fixtures';

const K1 = { id: 'k1', key: randomBytes(32).toString('base64') };
const CHEAP = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };
const UNAVAILABLE = { response_code: '90503', response_message: 'personal data unavailable' };
const CERT = '110101199003071234';
const MOBILE = '13900001234';

type Ready = { status: string; error?: Record<string, { status: string; message?: string; missing?: Record<string, string[]> }> };
async function ready(app: RunningAccountApp): Promise<{ status: number; body: Ready }> {
  const res = await fetch(`${app.baseUrl}/health/ready`);
  return { status: res.status, body: (await res.json()) as Ready };
}

describe('PII keys in use against PII_KEYS', () => {
  let dev: AccountHarness;
  const extra: RunningAccountApp[] = [];

  beforeAll(async () => {
    // No PII_KEYS: the development key, as `pnpm start` on a laptop.
    dev = await startAccountHarness({ env: CHEAP });
    for (const id of ['d1', 'd2']) {
      const res = await dev.a.registerUser(id, { ...NEW_USER, cert_id: CERT, user_mobile: MOBILE });
      expect(res.status).toBe(201);
    }
    expect((await dev.a.registerUser('no-pii', { ...NEW_USER })).status).toBe(201);
  });
  afterAll(async () => {
    for (const app of extra) await app.app.close();
    await dev?.close();
  });

  it('each registered column has its key-id index, and listing the key ids uses it (no scan of the table)', async () => {
    const ds = dev.app.get(DataSource);
    for (const target of PII_KEY_COLUMNS) {
      const { rows } = await dev.db.query(`SELECT 1 FROM pg_indexes WHERE tablename = $1 AND indexname = $2`, [
        target.table,
        piiKeyIndexName(target),
      ]);
      expect([target, rows.length]).toEqual([target, 1]);
    }
    const runner = ds.createQueryRunner();
    try {
      await runner.query('SET enable_seqscan = off');
      const plan = (await runner.query(
        `EXPLAIN WITH RECURSIVE k(id) AS (
           (SELECT split_part("cert_id", ':', 2) FROM "users" WHERE "cert_id" LIKE 'v1:%' ORDER BY 1 LIMIT 1)
           UNION ALL
           SELECT (SELECT split_part("cert_id", ':', 2) FROM "users" WHERE "cert_id" LIKE 'v1:%' AND split_part("cert_id", ':', 2) > k.id ORDER BY 1 LIMIT 1) FROM k WHERE k.id IS NOT NULL
         ) SELECT id FROM k WHERE id IS NOT NULL`,
      )) as { 'QUERY PLAN': string }[];
      const text = plan.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toContain('users_cert_id_pii_key_idx');
      expect(text).not.toMatch(/Seq Scan on users/);
    } finally {
      await runner.release();
    }
    expect(Object.fromEntries(await keyIdsInUse(ds))).toEqual({ dev: ['users.cert_id', 'users.user_mobile'] });
  });

  it('started with a ring that lacks the key in use: not ready (503 naming the key id), and a read answers 503 90503, not 500', async () => {
    const errors: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation(function (this: Logger, message: unknown) {
      errors.push(String(message));
    });
    try {
      const real = await listenAccountApp(dev.databaseUrl, { env: { ...CHEAP, PII_KEYS: JSON.stringify([K1]) } });
      extra.push(real);
      const state = await ready(real);
      expect(state.status).toBe(503);
      expect(state.body.error?.pii_keys).toEqual({
        status: 'down',
        message: 'stored personal data under key ids missing from PII_KEYS: dev',
        missing: { dev: ['users.cert_id', 'users.user_mobile'] },
      });
      expect(errors.some((e) => e.includes('key ids missing from PII_KEYS: dev (users.cert_id, users.user_mobile)'))).toBe(true);

      const client = real.client(APP_A);
      const one = await client.getUser('d1');
      expect(one.status).toBe(503);
      expect(one.body).toEqual(UNAVAILABLE);
      const page = await client.listUsers({ user_login_ids: 'd1,d2' });
      expect(page.status).toBe(503);
      expect(page.body).toEqual(UNAVAILABLE);
      const login = await client.login('d2', NEW_USER.user_pwd);
      expect(login.status).toBe(503);
      expect(login.body).toEqual(UNAVAILABLE);
      // a user without personal data is served
      expect((await client.getUser('no-pii')).body).toMatchObject({ response_code: '90000', user_login_id: 'no-pii' });
      // the log names the row and the key id, never the value
      expect(
        errors.some((e) => /users row \(app_token app-[0-9a-f]+, user_login_id d1\), cert_id: .*key id dev, not in PII_KEYS/.test(e)),
      ).toBe(true);
      expect(errors.join('\n')).not.toContain(CERT);
      expect(errors.join('\n')).not.toContain(MOBILE);
    } finally {
      spy.mockRestore();
    }
  });

  it('a damaged value answers 503 90503 naming no data; the log names the row and key id', async () => {
    const errors: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation(function (this: Logger, message: unknown) {
      errors.push(String(message));
    });
    const { rows } = await dev.db.query(`SELECT user_mobile FROM users WHERE app_token = $1 AND user_login_id = 'd2'`, [APP_A.appToken]);
    try {
      await dev.db.query(
        `UPDATE users SET user_mobile = (SELECT user_mobile FROM users WHERE app_token = $1 AND user_login_id = 'd1')
          WHERE app_token = $1 AND user_login_id = 'd2'`,
        [APP_A.appToken],
      );
      const one = await dev.a.getUser('d2');
      expect(one.status).toBe(503);
      expect(one.body).toEqual(UNAVAILABLE);
      expect(JSON.stringify(one.body)).not.toContain(MOBILE);
      expect(errors.some((e) => /user_login_id d2\), user_mobile: does not decrypt \(key id dev, damaged value\)/.test(e))).toBe(true);
      // a damaged value is not a missing key: the instance stays ready
      expect((await ready({ baseUrl: dev.baseUrl } as RunningAccountApp)).status).toBe(200);
    } finally {
      spy.mockRestore();
      await dev.db.query(`UPDATE users SET user_mobile = $2 WHERE app_token = $1 AND user_login_id = 'd2'`, [
        APP_A.appToken,
        rows[0].user_mobile,
      ]);
    }
  });

  it('rotate-pii --from-development-key needs a real ring, and refuses anything else', () => {
    expect(() => rotationKeys({}, ['--from-development-key'])).toThrow(/set them first/);
    expect(() => rotationKeys({ PII_KEYS: JSON.stringify([K1]) }, ['--from-dev'])).toThrow(/unknown argument --from-dev/);
    expect(rotationKeys({ PII_KEYS: JSON.stringify([K1]) }, ['--from-development-key']).map((k) => k.id)).toEqual(['k1', 'dev']);
    expect(rotationKeys({ PII_KEYS: JSON.stringify([K1]) }, []).map((k) => k.id)).toEqual(['k1']);
  });

  it('`pnpm rotate-pii --from-development-key` moves the data to the real ring: then ready, and every read answers', async () => {
    buildService(resolve(__dirname, '..'));
    const env = { ...process.env, NODE_OPTIONS: '', DATABASE_URL: dev.databaseUrl, PII_KEYS: JSON.stringify([K1]), LOG_LEVEL: 'warn' };
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((done) => {
        const child = spawn(process.execPath, [join(__dirname, '../dist/pii/rotate-pii.js'), ...args], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
        child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
        child.on('exit', (code) => done({ code, out }));
      });
    // Without the flag the development key's values cannot be opened: the run fails, naming the key.
    const without = await run([]);
    expect(without.code).toBe(1);
    expect(without.out).toMatch(/key dev is not in PII_KEYS/);

    const moved = await run(['--from-development-key']);
    expect(moved.out).toMatch(/rotate-pii: done under key k1: \d+ scanned, \d+ re-encrypted/);
    expect(moved.out).toMatch(/key ids in use: k1\n/);
    expect(moved.code).toBe(0);

    const real = await listenAccountApp(dev.databaseUrl, { env: { ...CHEAP, PII_KEYS: JSON.stringify([K1]) } });
    extra.push(real);
    expect((await ready(real)).status).toBe(200);
    const client = real.client(APP_A);
    for (const id of ['d1', 'd2']) {
      expect((await client.getUser(id)).body).toMatchObject({ response_code: '90000', cert_id: CERT, user_mobile: MOBILE });
    }
  }, 300_000);
});
