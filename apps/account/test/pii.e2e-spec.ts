import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PiiCipher } from '../src/pii/pii-cipher';
import { loadPiiKeys } from '../src/pii/pii-keys';
import { rewrapPii } from '../src/pii/pii-rewrap';
import { APP_A, type AccountHarness, type RunningAccountApp, listenAccountApp, startAccountHarness } from './support/account-harness';
import { NEW_USER } from './support/user-fixtures';

const K1 = JSON.stringify({ id: 'k1', key: randomBytes(32).toString('base64') });
const K2 = JSON.stringify({ id: 'k2', key: randomBytes(32).toString('base64') });
const ring = (...keys: string[]) => `[${keys.join(',')}]`;

/** Distinct certificate and mobile numbers of user `i`. */
const certOf = (i: number) => `11010119900307${String(1000 + i)}`;
const mobileOf = (i: number) => `139${String(10_000_000 + i)}`;
const USERS = 30;

describe('personal data at rest (docs/contract.md §11)', () => {
  let h: AccountHarness;
  const extra: RunningAccountApp[] = [];

  beforeAll(async () => {
    h = await startAccountHarness({ env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', PII_KEYS: ring(K1) } });
    for (let i = 0; i < USERS; i++) {
      const res = await h.a.registerUser(`p${i}`, {
        ...NEW_USER,
        cert_id: certOf(i),
        user_mobile: mobileOf(i),
        cert_id_encrypt: 'Q2VydA==',
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    for (const app of extra) await app.app.close();
    await h?.close();
  });

  const dump = () => execFileSync('pg_dump', ['--data-only', h.databaseUrl], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const plainIn = (text: string) =>
    Array.from({ length: USERS }, (_, i) => [certOf(i), mobileOf(i)])
      .flat()
      .filter((v) => text.includes(v));

  it('stores cert_id and user_mobile encrypted and reads back exactly what was written', async () => {
    const { rows } = await h.db.query(
      `SELECT cert_id, user_mobile, cert_id_encrypt FROM users WHERE app_token = $1 AND user_login_id = 'p3'`,
      [APP_A.appToken],
    );
    expect(rows[0].cert_id).toMatch(/^v1:k1:/);
    expect(rows[0].user_mobile).toMatch(/^v1:k1:/);
    // Values the client encrypted itself are stored as sent.
    expect(rows[0].cert_id_encrypt).toBe('Q2VydA==');
    const res = await h.a.getUser('p3');
    expect(res.body).toMatchObject({ response_code: '90000', cert_id: certOf(3), user_mobile: mobileOf(3), cert_id_encrypt: 'Q2VydA==' });
    const list = (await h.a.listUsers({ page_size: '1000' })).body as { list: { user_login_id: string; cert_id: string }[] };
    expect(list.list.find((u) => u.user_login_id === 'p7')).toMatchObject({ cert_id: certOf(7) });
  });

  it('leaves no plain certificate or mobile number in a pg_dump (users and audit events)', () => {
    const text = dump();
    expect(text).toContain('v1:k1:');
    expect(text).toContain('*******');
    expect(plainIn(text)).toEqual([]);
  });

  it('answers 503 90503 (docs/contract.md §6) for a value copied to another row in SQL, not someone else’s data', async () => {
    await h.db.query(
      `UPDATE users SET cert_id = (SELECT cert_id FROM users WHERE app_token = $1 AND user_login_id = 'p1')
        WHERE app_token = $1 AND user_login_id = 'p2'`,
      [APP_A.appToken],
    );
    const one = await h.a.getUser('p2');
    expect(one.status).toBe(503);
    expect(one.body).toEqual({ response_code: '90503', response_message: 'personal data unavailable' });
    const list = await h.a.listUsers({ user_login_ids: 'p2' });
    expect(list.status).toBe(503);
    expect(list.body).toEqual({ response_code: '90503', response_message: 'personal data unavailable' });
    expect(JSON.stringify(one.body) + JSON.stringify(list.body)).not.toContain(certOf(1));
    // Put a proper value back for the rotation test.
    expect((await h.a.modifyUser('p2', { cert_id: certOf(2) })).status).toBe(201);
    expect((await h.a.getUser('p2')).body).toMatchObject({ cert_id: certOf(2) });
  });

  it('encrypts rows written before encryption (plain values) and serves them meanwhile', async () => {
    await h.db.query(`UPDATE users SET cert_id = $2, user_mobile = $3 WHERE app_token = $1 AND user_login_id = 'p4'`, [
      APP_A.appToken,
      certOf(4),
      mobileOf(4),
    ]);
    expect((await h.a.getUser('p4')).body).toMatchObject({ cert_id: certOf(4), user_mobile: mobileOf(4) });
    const counts = await rewrapPii(h.app.get(DataSource), new PiiCipher(loadPiiKeys({ PII_KEYS: ring(K1) }).keys), { plainOnly: true });
    expect(counts).toEqual({ scanned: 1, rewritten: 1, skipped: 0 });
    expect((await h.a.getUser('p4')).body).toMatchObject({ cert_id: certOf(4), user_mobile: mobileOf(4) });
    expect(plainIn(dump())).toEqual([]);
  });

  it('rotates to a new key while serving under load without a failed request; then the new key alone reads everything', async () => {
    const serving = await listenAccountApp(h.databaseUrl, {
      env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', PII_KEYS: ring(K2, K1) },
    });
    extra.push(serving);
    const client = serving.client(APP_A);
    let running = true;
    const failures: string[] = [];
    let requests = 0;
    // The rotation starts once the load is under way (8 answers), whatever the machine's speed.
    let started!: () => void;
    const loadStarted = new Promise<void>((resolve) => (started = resolve));
    const load = Array.from({ length: 4 }, async (_, w) => {
      for (let n = 0; running; n++) {
        const i = (w * 7 + n) % USERS;
        const res = n % 3 === 0 ? await client.modifyUser(`p${i}`, { user_mobile: mobileOf(i) }) : await client.getUser(`p${i}`);
        requests++;
        if (requests === 8) started();
        const body = res.body as { response_code: string; cert_id?: string; user_mobile?: string };
        if (body.response_code !== '90000') failures.push(`${res.status} ${JSON.stringify(body)}`);
        else if (body.cert_id !== undefined && (body.cert_id !== certOf(i) || body.user_mobile !== mobileOf(i)))
          failures.push(`p${i} read wrong`);
      }
    });
    let counts;
    let atStart = 0;
    try {
      await loadStarted;
      atStart = requests;
      counts = await rewrapPii(serving.app.get(DataSource), new PiiCipher(loadPiiKeys({ PII_KEYS: ring(K2, K1) }).keys), { batchSize: 4 });
    } finally {
      running = false;
      await Promise.all(load);
    }
    expect(failures).toEqual([]);
    // Requests were served while the rotation ran (the load ran before, during and after it).
    expect(requests).toBeGreaterThan(atStart);
    expect(counts.rewritten + counts.skipped).toBeGreaterThan(0);
    // Rows a concurrent modify rewrote were already under k2: nothing is left under k1.
    const { rows } = await h.db.query(
      `SELECT count(*)::int AS n FROM users WHERE cert_id NOT LIKE 'v1:k2:%' OR user_mobile NOT LIKE 'v1:k2:%'`,
    );
    expect(rows[0].n).toBe(0);

    const onlyNew = await listenAccountApp(h.databaseUrl, { env: { PII_KEYS: ring(K2) } });
    extra.push(onlyNew);
    for (let i = 0; i < USERS; i++) {
      expect((await onlyNew.client(APP_A).getUser(`p${i}`)).body).toMatchObject({
        response_code: '90000',
        cert_id: certOf(i),
        user_mobile: mobileOf(i),
      });
    }
    expect(plainIn(dump())).toEqual([]);
  });
});
