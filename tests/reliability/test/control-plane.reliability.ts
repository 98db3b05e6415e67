/**
 * The control plane across processes (docs/contract.md §14): two account instances on one
 * PostgreSQL database and one location instance (Redis cache) learning the apps from the first.
 * Issue, use on both services, rotate (old and new both valid), revoke (old refused), rotate
 * with `retire_others_in` (old refused after it), disable (both services refuse), and
 * `last_used_time` set by a use on each service - each propagation time printed. Then every log
 * line, audit event and answer of those flows is searched for the secrets and AES keys.
 */
import { readFileSync } from 'node:fs';
import { AccountClient, AdminClient, LbsClient } from '@geoaccount/client';
import { type TestDatabase, createTestDatabase } from '../src/database';
import { figure } from '../src/figures';
import { waitFor } from '../src/net';
import { connectRedis, deleteUnder, redisUrl, runPrefix } from '../src/redis';
import { ServiceProcess, stopAllServices } from '../src/service-process';

const ADMIN_TOKEN = 'cp-admin-token-7c1e9a0b2d4f6e8a-0123456789';
const INTERNAL_TOKEN = 'cp-internal-token-3b5d7f9e1a2c4e6a-012345';
const TIANANMEN = { longitude: '116.391275', latitude: '39.907501' };
/** docs/contract.md §14: within 5 s on account, 15 s on location; asserted generously on a loaded machine. */
const ACCOUNT_BOUND_MS = 15_000;
const LOCATION_BOUND_MS = 45_000;
/** The smallest `retire_others_in` the contract allows. */
const RETIRE_MIN_SECONDS = 60;

interface Credential {
  credential_id: string;
  secret: string;
  aes_key: string;
}

/** Every answer the flows received, with where it came from. */
const answers: { method: string; url: string; status: number; text: string }[] = [];
/** URLs whose answers carry a secret by design: the issuing ones (docs/contract.md §14). */
const ISSUING = [/\/admin\/v1\/apps$/, /\/admin\/v1\/apps\/[^/]+\/credentials$/];

const recordingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  const text = await res.clone().text();
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  answers.push({ method: init?.method ?? 'GET', url, status: res.status, text });
  return res;
};

describe('control plane: two account instances and one location instance', () => {
  let db: TestDatabase;
  let account1: ServiceProcess;
  let account2: ServiceProcess;
  let location: ServiceProcess;
  let admin: AdminClient;
  const prefix = runPrefix('control-plane');
  const issued: Credential[] = [];

  const accountStatus = async (svc: ServiceProcess, appToken: string, c: Credential) =>
    (await new AccountClient({ retries: 0, baseUrl: svc.baseUrl, appToken, secret: c.secret, fetch: recordingFetch }).listAuths()).status;
  const locationStatus = async (appToken: string, c: Credential) =>
    (
      await new LbsClient({ retries: 0, baseUrl: location.baseUrl, userToken: appToken, secret: c.secret, fetch: recordingFetch }).lbsQuery(
        TIANANMEN,
      )
    ).status;
  const accepted = (status: number) => status !== 401;

  /** Waits until `check` holds, prints the time it took and holds it to `boundMs`. */
  async function propagation(name: string, check: () => Promise<boolean>, boundMs: number, since = Date.now()): Promise<number> {
    await waitFor(name, check, boundMs + 5000, 100);
    const took = Date.now() - since;
    figure('control-plane', name, took, 'ms', `< ${boundMs}`);
    expect(took).toBeLessThan(boundMs);
    return took;
  }

  async function createApp(name: string): Promise<{ appToken: string; credential: Credential }> {
    const res = await admin.createApp({ app_name: name });
    expect(res.status).toBe(201);
    const app = res.ok();
    expect(app).toMatchObject({ response_code: '90000', app_name: name, state: 'enabled', source: 'api' });
    expect(app.app_token).toMatch(/^app-[0-9a-f]{32}$/);
    issued.push(app.credential);
    return { appToken: app.app_token, credential: app.credential };
  }

  async function credentialView(appToken: string, credentialId: string) {
    const app = (await admin.getApp(appToken)).ok();
    return app.credentials.find((c) => c.credential_id === credentialId)!;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const accountEnv = { DATABASE_URL: db.url, ADMIN_TOKEN, INTERNAL_TOKEN, CREDENTIAL_USE_FLUSH_SECONDS: '1' };
    account1 = await ServiceProcess.start('account', { name: 'account-cp-1', env: accountEnv });
    account2 = await ServiceProcess.start('account', { name: 'account-cp-2', env: accountEnv });
    // APPS_POLL_SECONDS keeps its default (5 s): the times printed are those of a deployment.
    location = await ServiceProcess.start('location', {
      name: 'location-cp',
      env: {
        APPS_URL: account1.baseUrl,
        INTERNAL_TOKEN,
        REDIS_URL: redisUrl(),
        CACHE_KEY_PREFIX: prefix,
        CREDENTIAL_USE_FLUSH_SECONDS: '1',
      },
      startTimeoutMs: 120_000,
    });
    admin = new AdminClient({ baseUrl: account1.baseUrl, token: ADMIN_TOKEN, retries: 0, fetch: recordingFetch });
  }, 240_000);

  afterAll(async () => {
    await stopAllServices();
    await db?.drop();
    const redis = connectRedis();
    await deleteUnder(redis, prefix).finally(() => redis.disconnect());
  });

  let main: { appToken: string; first: Credential; second?: Credential; third?: Credential };

  it('issue: a new app is accepted on the other account instance and on location', async () => {
    const since = Date.now();
    const { appToken, credential } = await createApp('cp-flows');
    main = { appToken, first: credential };
    expect(await accountStatus(account1, appToken, credential)).toBe(200);
    await propagation(
      'issue → accepted by account instance 2',
      async () => accepted(await accountStatus(account2, appToken, credential)),
      ACCOUNT_BOUND_MS,
      since,
    );
    await propagation(
      'issue → accepted by location',
      async () => accepted(await locationStatus(appToken, credential)),
      LOCATION_BOUND_MS,
      since,
    );
    expect(await locationStatus(appToken, credential)).toBe(200);
    expect(await accountStatus(account2, appToken, credential)).toBe(200);
  });

  it('rotate: a second credential, old and new both valid on every instance; a third is refused (409 30120)', async () => {
    const since = Date.now();
    const res = await admin.issueCredential(main.appToken);
    expect(res.status).toBe(201);
    const second = res.ok();
    expect(Object.keys(second).sort()).toEqual(['aes_key', 'credential_id', 'response_code', 'response_message', 'secret']);
    issued.push(second);
    main.second = second;
    await propagation(
      'rotate → new credential accepted by account instance 2',
      async () => accepted(await accountStatus(account2, main.appToken, second)),
      ACCOUNT_BOUND_MS,
      since,
    );
    await propagation(
      'rotate → new credential accepted by location',
      async () => accepted(await locationStatus(main.appToken, second)),
      LOCATION_BOUND_MS,
      since,
    );
    for (const c of [main.first, second]) {
      expect(await accountStatus(account1, main.appToken, c)).toBe(200);
      expect(await accountStatus(account2, main.appToken, c)).toBe(200);
      expect(await locationStatus(main.appToken, c)).toBe(200);
    }
    const third = await admin.issueCredential(main.appToken);
    expect([third.status, third.body.response_code]).toEqual([409, '30120']);
    expect(third.body).not.toHaveProperty('secret');
  });

  it('revoke: the old credential is refused on the other account instance and on location, the new one kept', async () => {
    const since = Date.now();
    const res = await admin.revokeCredential(main.appToken, main.first.credential_id);
    expect([res.status, res.body.response_code]).toEqual([200, '90000']);
    expect((await credentialView(main.appToken, main.first.credential_id)).state).toBe('revoked');
    expect(await accountStatus(account1, main.appToken, main.first)).toBe(401);
    await propagation(
      'revoke → refused by account instance 2',
      async () => (await accountStatus(account2, main.appToken, main.first)) === 401,
      ACCOUNT_BOUND_MS,
      since,
    );
    await propagation(
      'revoke → refused by location',
      async () => (await locationStatus(main.appToken, main.first)) === 401,
      LOCATION_BOUND_MS,
      since,
    );
    expect(await accountStatus(account2, main.appToken, main.second!)).toBe(200);
    expect(await locationStatus(main.appToken, main.second!)).toBe(200);
  });

  it(`rotate with retire_others_in=${RETIRE_MIN_SECONDS} (the contract's minimum): the other credential is refused everywhere once it expires`, async () => {
    const issuedAt = Date.now();
    const res = await admin.issueCredential(main.appToken, { retire_others_in: RETIRE_MIN_SECONDS });
    expect(res.status).toBe(201);
    const third = res.ok();
    issued.push(third);
    main.third = third;
    const retiring = await credentialView(main.appToken, main.second!.credential_id);
    expect(retiring).toMatchObject({ state: 'active', expire_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/) });
    // Until then both are valid everywhere (location learns the new one and the old one's expiry in one read).
    await waitFor(
      'location to accept the newest credential',
      async () => accepted(await locationStatus(main.appToken, third)),
      LOCATION_BOUND_MS,
      100,
    );
    await waitFor(
      'account instance 2 to accept the newest credential',
      async () => accepted(await accountStatus(account2, main.appToken, third)),
      ACCOUNT_BOUND_MS,
      100,
    );
    expect(await accountStatus(account2, main.appToken, main.second!)).toBe(200);
    expect(await locationStatus(main.appToken, main.second!)).toBe(200);
    // The wait: retire_others_in cannot be shorter than 60 s.
    const expiry = issuedAt + RETIRE_MIN_SECONDS * 1000;
    await waitFor('the expiry', () => Date.now() >= expiry + 1000, RETIRE_MIN_SECONDS * 1000 + 10_000, 250);
    const refused = await Promise.all([
      accountStatus(account1, main.appToken, main.second!),
      accountStatus(account2, main.appToken, main.second!),
      locationStatus(main.appToken, main.second!),
    ]);
    figure('control-plane', 'retire_others_in 60 → refused on account 1 / account 2 / location, 1 s after the expiry', refused.join(' / '));
    expect(refused).toEqual([401, 401, 401]);
    expect((await credentialView(main.appToken, main.second!.credential_id)).state).toBe('expired');
    expect(await accountStatus(account2, main.appToken, third)).toBe(200);
    expect(await locationStatus(main.appToken, third)).toBe(200);
  }, 200_000);

  it('last_used_time: set by a use on account instance 2 only, and by a use on location only', async () => {
    const onAccount = await createApp('cp-used-on-account');
    expect(await credentialView(onAccount.appToken, onAccount.credential.credential_id)).toMatchObject({ last_used_time: '' });
    await waitFor(
      'account instance 2 to accept',
      async () => accepted(await accountStatus(account2, onAccount.appToken, onAccount.credential)),
      ACCOUNT_BOUND_MS,
      100,
    );
    let since = Date.now();
    await propagation(
      'a use on account instance 2 → last_used_time set',
      async () => (await credentialView(onAccount.appToken, onAccount.credential.credential_id)).last_used_time !== '',
      ACCOUNT_BOUND_MS,
      since,
    );

    const onLocation = await createApp('cp-used-on-location');
    await waitFor(
      'location to accept',
      async () => accepted(await locationStatus(onLocation.appToken, onLocation.credential)),
      LOCATION_BOUND_MS,
      100,
    );
    since = Date.now();
    await propagation(
      'a use on location → last_used_time set',
      async () => (await credentialView(onLocation.appToken, onLocation.credential.credential_id)).last_used_time !== '',
      LOCATION_BOUND_MS,
      since,
    );
    const view = await credentialView(onLocation.appToken, onLocation.credential.credential_id);
    expect(view.last_used_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  });

  it('disable: both services refuse the app; enable: both accept it again', async () => {
    let since = Date.now();
    const res = await admin.disableApp(main.appToken);
    expect(res.status).toBe(200);
    expect(res.ok()).toMatchObject({ state: 'disabled' });
    expect(await accountStatus(account1, main.appToken, main.third!)).toBe(401);
    await propagation(
      'disable → refused by account instance 2',
      async () => (await accountStatus(account2, main.appToken, main.third!)) === 401,
      ACCOUNT_BOUND_MS,
      since,
    );
    await propagation(
      'disable → refused by location',
      async () => (await locationStatus(main.appToken, main.third!)) === 401,
      LOCATION_BOUND_MS,
      since,
    );
    since = Date.now();
    expect((await admin.enableApp(main.appToken)).status).toBe(200);
    await propagation(
      'enable → accepted by account instance 2',
      async () => accepted(await accountStatus(account2, main.appToken, main.third!)),
      ACCOUNT_BOUND_MS,
      since,
    );
    await propagation(
      'enable → accepted by location',
      async () => accepted(await locationStatus(main.appToken, main.third!)),
      LOCATION_BOUND_MS,
      since,
    );
  });

  it('no secret or AES key in any log line, audit event or answer but the issuing ones', async () => {
    const values = issued.flatMap((c) => [
      { what: `secret of ${c.credential_id}`, value: c.secret },
      { what: `AES key of ${c.credential_id}`, value: c.aes_key },
    ]);
    expect(values.length).toBeGreaterThanOrEqual(10);
    const tokens = [
      { what: 'ADMIN_TOKEN', value: ADMIN_TOKEN },
      { what: 'INTERNAL_TOKEN', value: INTERNAL_TOKEN },
    ];

    // Audit events: through the admin API and in the table itself.
    const events = await admin.auditEvents({ page_size: '1000' });
    expect(events.status).toBe(200);
    const eventList = events.ok().event_list;
    expect(eventList.filter((e) => e.resource_type === 'credential').length).toBeGreaterThanOrEqual(4);
    const table = (await db.pool.query<{ row: string }>('SELECT e::text AS row FROM audit_events e')).rows.map((r) => r.row).join('\n');
    expect(table.length).toBeGreaterThan(0);

    await stopAllServices();
    const logs = [account1, account2, location].map((svc) => ({ name: svc.name, text: readFileSync(svc.logFile, 'utf8') }));
    for (const log of logs) expect(log.text.length).toBeGreaterThan(0);

    const others = answers.filter((a) => !(a.method === 'POST' && ISSUING.some((re) => re.test(a.url.split('?')[0]!))));
    const issuing = answers.length - others.length;
    figure(
      'control-plane',
      'answers / audit events / log lines searched for secrets',
      `${others.length} / ${eventList.length} / ${logs.reduce((n, l) => n + l.text.split('\n').length, 0)}`,
    );
    expect(issuing).toBe(issued.length + 1); // every issue, and the refused third credential

    const leaks: string[] = [];
    for (const { what, value } of [...values, ...tokens]) {
      for (const log of logs) if (log.text.includes(value)) leaks.push(`${what} in the log of ${log.name}`);
      if (JSON.stringify(eventList).includes(value)) leaks.push(`${what} in an audit event (admin API)`);
      if (table.includes(value)) leaks.push(`${what} in the audit_events table`);
    }
    for (const { what, value } of values) {
      for (const a of others) if (a.text.includes(value)) leaks.push(`${what} in the answer of ${a.method} ${a.url}`);
    }
    expect(leaks).toEqual([]);
  });
});
