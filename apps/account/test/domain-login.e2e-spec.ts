import { readFileSync } from 'node:fs';
import { Client } from 'ldapts';
import type { TestAccountClient } from '@geoaccount/client/internal';
import type { AppCredential } from '@geoaccount/signing';
import { DEFAULT_USER_FILTER, type DirectoryConfig, type DirectorySettings } from '../src/config/directory.config';
import { APP_A, type AccountHarness, type RunningAccountApp, listenAccountApp, startAccountHarness } from './support/account-harness';
import { DelayProxy, LDAP, PrivateSlapd, SilentServer } from './support/slapd';
import { OK } from './support/user-fixtures';
import { LATE_MS, freePort, printFigure } from '@geoaccount/testing';

const FAILED = { response_code: '20441', response_message: 'login verification failed' };
const LOCKED = { response_code: '20443', response_message: 'too many failed logins' };
const BAD_TYPE = { response_code: '20442', response_message: 'user type incorrect' };
const UNAVAILABLE = { response_code: '20499', response_message: 'directory unavailable' };
const CHEAP = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };
const TIMEOUT_MS = 1500;
/** Delay of every answer of the distant directory. */
const DISTANCE_MS = 200;

/** A further app of the run (gcm), named by `n`. */
function app(n: number): Required<AppCredential> {
  return {
    appToken: `app-d${n.toString(16).padStart(3, '0')}`,
    secret: `secret-of-directory-app-${n}`,
    aesKey: `aes-key-${n}`,
    aesMode: 'gcm',
  };
}

function directory(urls: string[], over: Partial<DirectorySettings> = {}): DirectorySettings {
  return {
    urls,
    bindDn: LDAP.bindDn,
    bindPassword: LDAP.bindPassword,
    userBaseDn: LDAP.suffix,
    userFilter: DEFAULT_USER_FILTER,
    startTls: false,
    timeoutMs: TIMEOUT_MS,
    ...over,
  };
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await run();
  return [result, performance.now() - start];
}

async function metrics(baseUrl: string): Promise<string> {
  return (await fetch(`${baseUrl}/metrics`)).text();
}

/** `directory_checks_total{directory="directory",result="refused"}` of an instance. */
async function refusedChecks(baseUrl: string): Promise<number> {
  const line = /^directory_checks_total\{[^}]*directory="directory"[^}]*result="refused"[^}]*\} (\d+)$/m.exec(await metrics(baseUrl));
  return line ? Number(line[1]) : 0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Registers a domain user (no password) and fails the test unless it answers 201. */
async function domainUser(client: TestAccountClient, loginId: string): Promise<void> {
  const res = await client.registerUser(loginId, { user_name: 'Domain', user_type: 'C', is_domain_user: '1' });
  if (res.status !== 201) throw new Error(`register ${loginId}: ${res.status} ${JSON.stringify(res.body)}`);
}

describe('domain login (is_domain_user=1) against a real OpenLDAP slapd', () => {
  let slapd: PrivateSlapd;
  let h: AccountHarness;
  let directories: DirectoryConfig;
  const SOLO = app(1); // user base with a single entry: an unescaped `*` would find it
  const AD = app(2); // (sAMAccountName={login})
  const UPN = app(3); // (userPrincipalName={login})
  const STARTTLS = app(4);
  const LDAPS = app(5);
  const LDAPS_WRONG_CA = app(6);
  const STARTTLS_WRONG_CA = app(7);
  const SILENT = app(8);
  const FAILOVER = app(9);
  const NO_DIRECTORY = app(10);
  const BAD_SERVICE = app(11);
  const DISTANT = app(12); // every answer of the directory DISTANCE_MS late
  let silent: SilentServer;
  let distant: DelayProxy;

  beforeAll(async () => {
    // The directory accepts unauthenticated binds (a DN with an empty password): the trap an
    // empty password must not fall into.
    slapd = await PrivateSlapd.start({ anonymousBinds: true });
    silent = await SilentServer.start();
    distant = await DelayProxy.start(slapd.port, DISTANCE_MS);
    const closedPort = await freePort();
    directories = {
      byApp: new Map([
        [SOLO.appToken, directory([slapd.url], { userBaseDn: LDAP.solo })],
        [AD.appToken, directory([slapd.url], { userFilter: '(sAMAccountName={login})' })],
        [UPN.appToken, directory([slapd.url], { userFilter: '(&(objectClass=inetOrgPerson)(userPrincipalName={login}))' })],
        [STARTTLS.appToken, directory([slapd.url], { startTls: true, ca: readPem(slapd.caFile) })],
        [LDAPS.appToken, directory([slapd.ldapsUrl], { ca: readPem(slapd.caFile) })],
        [LDAPS_WRONG_CA.appToken, directory([slapd.ldapsUrl], { ca: readPem(slapd.otherCaFile) })],
        [STARTTLS_WRONG_CA.appToken, directory([slapd.url], { startTls: true, ca: readPem(slapd.otherCaFile) })],
        [SILENT.appToken, directory([silent.url])],
        [FAILOVER.appToken, directory([`ldap://127.0.0.1:${closedPort}`, slapd.url])],
        [BAD_SERVICE.appToken, directory([slapd.url], { bindPassword: 'not-the-service-password' })],
        [DISTANT.appToken, directory([distant.url])],
      ]),
      // apps A (gcm) and B (ecb) use the LDAP_* directory
      fallback: directory([slapd.url]),
    };
    const apps = [SOLO, AD, UPN, STARTTLS, LDAPS, LDAPS_WRONG_CA, STARTTLS_WRONG_CA, SILENT, FAILOVER, NO_DIRECTORY, BAD_SERVICE, DISTANT];
    h = await startAccountHarness({ env: CHEAP, apps, directories });
    for (const id of ['alice', 'dave', 'twin', 'ghost', 'dav*', 'locked-alice']) await domainUser(h.a, id);
    await domainUser(h.b, 'alice');
    for (const id of ['solo', '*', '*)(uid=*', 'admin)(|(uid=*', 'dav*']) await domainUser(h.client(SOLO), id);
    await domainUser(h.client(AD), LDAP.ad.sAMAccountName);
    await domainUser(h.client(UPN), LDAP.ad.upn);
    for (const a of [STARTTLS, LDAPS, LDAPS_WRONG_CA, STARTTLS_WRONG_CA, SILENT, FAILOVER, NO_DIRECTORY, BAD_SERVICE])
      await domainUser(h.client(a), 'alice');
  });
  afterAll(async () => {
    await h?.close();
    await silent?.close();
    await distant?.close();
    await slapd?.close();
  });

  it('logs in with the directory password: app A (gcm) and app B (ecb), answering the user record', async () => {
    const a = await h.a.login('alice', LDAP.users.alice);
    expect(a).toMatchObject({ status: 200, body: { ...OK, user_login_id: 'alice', is_domain_user: '1', user_pwd: null } });
    expect(await h.b.login('alice', LDAP.users.alice)).toMatchObject({ status: 200, body: { ...OK, user_login_id: 'alice' } });
    expect(await h.a.login('alice', LDAP.users.alice, { is_domain_user: '1' })).toMatchObject({ status: 200, body: OK });
  });

  it('refuses a wrong password, a login id not in the directory and one matching two entries alike: 401 20441', async () => {
    expect(await h.a.login('alice', 'not-the-password')).toMatchObject({ status: 401, body: FAILED });
    expect(await h.a.login('alice', LDAP.users.dave)).toMatchObject({ status: 401, body: FAILED });
    expect(await h.a.login('ghost', 'any-password')).toMatchObject({ status: 401, body: FAILED });
    // uid=twin is in ou=people and ou=staff: the right password of both is still refused
    expect(await h.a.login('twin', LDAP.users.twin)).toMatchObject({ status: 401, body: FAILED });
    // a user of the service must be registered: the directory creates none
    expect(await h.a.login('solo', LDAP.users.solo)).toMatchObject({ status: 401, body: FAILED });
  });

  it(`answers "not in the directory" and "wrong password" in similar time (a directory ${DISTANCE_MS} ms away)`, async () => {
    // Without the wait, "not in the directory" would skip the user bind: 2 round trips of
    // the directory instead of 3, a third faster. The directory is far enough away that its
    // round trips, not the load of the machine, make most of a login's time.
    const distantApp = h.client(DISTANT);
    await domainUser(distantApp, 'alice');
    await domainUser(distantApp, 'ghost');
    const notFound: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 12; i++) {
      const [w, wMs] = await timed(() => distantApp.login('alice', `wrong-${i}`));
      const [nf, nfMs] = await timed(() => distantApp.login('ghost', `wrong-${i}`));
      expect([w.status, nf.status]).toEqual([401, 401]);
      if (i >= 2) {
        wrong.push(wMs);
        notFound.push(nfMs);
      }
      if (i % 4 === 3) await h.db.query('DELETE FROM login_failures WHERE app_token = $1', [DISTANT.appToken]); // stay below the lock
    }
    const ratio = median(notFound) / median(wrong);
    printFigure(
      'directory login median: not in the directory / wrong password',
      `${median(notFound).toFixed(0)} / ${median(wrong).toFixed(0)}`,
    );
    // without the wait about 0.67
    expect(ratio).toBeGreaterThan(0.8);
    expect(ratio).toBeLessThan(1.25);
  }, 90_000);

  it('escapes the login id in the filter (RFC 4515): no injection widens the search', async () => {
    const solo = h.client(SOLO);
    // the user base of this app holds only uid=solo: an unescaped `*` would find exactly it
    expect(await solo.login('solo', LDAP.users.solo)).toMatchObject({ status: 200, body: OK });
    for (const id of ['*', '*)(uid=*', 'admin)(|(uid=*', 'dav*']) {
      expect([id, await solo.login(id, LDAP.users.solo)]).toMatchObject([id, { status: 401, body: FAILED }]);
    }
    // (uid=dav*) unescaped would find only uid=dave
    expect(await h.a.login('dav*', LDAP.users.dave)).toMatchObject({ status: 401, body: FAILED });
    expect(await h.a.login('dave', LDAP.users.dave)).toMatchObject({ status: 200, body: OK });
  });

  it('refuses empty and blank passwords without asking the directory, though it would accept the bind', async () => {
    // The trap is armed: slapd takes a DN with an empty password as an anonymous bind.
    const raw = new Client({ url: slapd.url, timeout: 2000 });
    await expect(raw.bind(`uid=alice,${LDAP.people}`, '')).resolves.toBeUndefined();
    await raw.unbind();
    const checks = async () => (await metrics(h.baseUrl)).match(/^directory_checks_total\{[^}]*\} (\d+)/gm)?.join('|');
    const before = await checks();
    for (const blank of ['', ' ', '   ', '\t']) {
      expect(await h.a.login('alice', blank)).toMatchObject({ status: 401, body: FAILED });
      await h.db.query('DELETE FROM login_failures');
    }
    expect(await checks()).toBe(before);
  });

  it('20442 when is_domain_user is sent and differs, told only with the right password', async () => {
    expect(await h.a.login('alice', LDAP.users.alice, { is_domain_user: '0' })).toMatchObject({ status: 401, body: BAD_TYPE });
    expect(await h.a.login('alice', 'wrong', { is_domain_user: '0' })).toMatchObject({ status: 401, body: FAILED });
    await h.a.login('alice', LDAP.users.alice);
  });

  it('finds Active Directory-style entries: (sAMAccountName={login}) and the UPN', async () => {
    expect(await h.client(AD).login(LDAP.ad.sAMAccountName, LDAP.ad.password)).toMatchObject({ status: 200, body: OK });
    expect(await h.client(AD).login(LDAP.ad.sAMAccountName, 'wrong')).toMatchObject({ status: 401, body: FAILED });
    expect(await h.client(UPN).login(LDAP.ad.upn, LDAP.ad.password)).toMatchObject({ status: 200, body: OK });
  });

  it('StartTLS and ldaps:// with the CA of the directory log in; another CA answers 503 20499', async () => {
    expect(await h.client(STARTTLS).login('alice', LDAP.users.alice)).toMatchObject({ status: 200, body: OK });
    expect(await h.client(LDAPS).login('alice', LDAP.users.alice)).toMatchObject({ status: 200, body: OK });
    expect(await h.client(LDAPS_WRONG_CA).login('alice', LDAP.users.alice)).toMatchObject({ status: 503, body: UNAVAILABLE });
    expect(await h.client(STARTTLS_WRONG_CA).login('alice', LDAP.users.alice)).toMatchObject({ status: 503, body: UNAVAILABLE });
  });

  it('a directory that accepts the connection and never answers: 503 20499 within the deadline', async () => {
    const [res, ms] = await timed(() => h.client(SILENT).login('alice', LDAP.users.alice));
    expect(res).toMatchObject({ status: 503, body: UNAVAILABLE });
    printFigure(`silent directory: answered after (deadline ${TIMEOUT_MS} ms)`, ms);
    // not before the deadline; late only by what a loaded machine delays a timer (the directory never answers)
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(ms).toBeLessThan(TIMEOUT_MS + LATE_MS);
  });

  it('tries several urls in order', async () => {
    expect(await h.client(FAILOVER).login('alice', LDAP.users.alice)).toMatchObject({ status: 200, body: OK });
  });

  it('a refused service bind is "directory unavailable", not a failed login', async () => {
    expect(await h.client(BAD_SERVICE).login('alice', LDAP.users.alice)).toMatchObject({ status: 503, body: UNAVAILABLE });
    const { rows } = await h.db.query(`SELECT cardinality(failed_at) AS n FROM login_failures WHERE app_token = $1`, [
      BAD_SERVICE.appToken,
    ]);
    expect(rows).toEqual([]);
  });

  it('an app without a directory: 401 20441', async () => {
    const withoutDirectory = await listenAccountApp(h.databaseUrl, { env: CHEAP, apps: [NO_DIRECTORY], directories: { byApp: new Map() } });
    try {
      expect(await withoutDirectory.client(NO_DIRECTORY).login('alice', LDAP.users.alice)).toMatchObject({ status: 401, body: FAILED });
    } finally {
      await withoutDirectory.app.close();
    }
  });

  it('reports the checks in the metrics', async () => {
    const text = await metrics(h.baseUrl);
    expect(text).toMatch(/^directory_checks_total\{[^}]*directory="directory"[^}]*result="accepted"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^directory_checks_total\{[^}]*result="refused"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^directory_checks_total\{[^}]*result="unavailable"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^upstream_request_duration_seconds_count\{[^}]*upstream="directory"[^}]*\} [1-9]/m);
    expect(text).toMatch(/^upstream_circuit_state\{[^}]*upstream="directory"[^}]*\} 0/m);
  });

  describe('lockout across two instances', () => {
    let second: RunningAccountApp;
    beforeAll(async () => {
      second = await listenAccountApp(h.databaseUrl, { env: CHEAP, apps: [], directories });
    });
    afterAll(() => second?.app.close());

    it('5 directory failures over both instances lock: 403 20443, the right password too', async () => {
      const other = second.client(APP_A);
      for (let i = 0; i < 5; i++) expect(await (i % 2 ? other : h.a).login('locked-alice', `wrong-${i}`)).toMatchObject({ status: 401 });
      expect(await other.login('locked-alice', LDAP.users.alice)).toMatchObject({ status: 403, body: LOCKED });
      expect(await h.a.login('locked-alice', LDAP.users.alice)).toMatchObject({ status: 403, body: LOCKED });
    });

    it('120 concurrent attempts over both: at most 5 passwords checked by the directory', async () => {
      await h.db.query('DELETE FROM login_failures');
      const other = second.client(APP_A);
      const refused = async () => (await refusedChecks(h.baseUrl)) + (await refusedChecks(second.baseUrl));
      const before = await refused();
      const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => (i % 2 ? other : h.a).login('dave', `wrong-${i}`)));
      const codes = answers.map((r) => (r.body as { response_code: string }).response_code);
      expect(codes.filter((c) => c === '20441')).toHaveLength(5);
      expect(codes.filter((c) => c === '20443')).toHaveLength(115);
      // the directory itself was asked 5 times, over both instances
      expect((await refused()) - before).toBe(5);
    });
  });
});

function readPem(file: string): string {
  return readFileSync(file, 'utf8');
}

describe('domain login: the directory stopped and restarted', () => {
  let slapd: PrivateSlapd;
  let h: AccountHarness;

  beforeAll(async () => {
    slapd = await PrivateSlapd.start();
    h = await startAccountHarness({ env: CHEAP, directories: { byApp: new Map(), fallback: directory([slapd.url]) } });
    await domainUser(h.a, 'alice');
    const res = await h.a.registerUser('local', { user_name: 'Local', user_type: 'C', user_pwd: 'Local-pw-1' });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await h?.close();
    await slapd?.close();
  });

  const ready = async () => {
    const res = await fetch(`${h.baseUrl}/health/ready`);
    return { status: res.status, body: (await res.json()) as { info?: Record<string, { status: string; degraded?: string[] }> } };
  };

  it('answers 503 20499 within the deadline, keeps ordinary logins and readiness up, and recovers by itself', async () => {
    expect(await h.a.login('alice', LDAP.users.alice)).toMatchObject({ status: 200, body: OK });
    expect((await ready()).body.info?.directory).toMatchObject({ status: 'up' });
    await slapd.stop();

    for (let i = 0; i < 8; i++) {
      // past 5 unavailable checks the circuit opens: refused at once, still 503 20499
      const [res, ms] = await timed(() => h.a.login('alice', LDAP.users.alice));
      expect(res).toMatchObject({ status: 503, body: UNAVAILABLE });
      expect(ms).toBeLessThan(TIMEOUT_MS + LATE_MS);
    }
    // not counted as failures
    const { rows } = await h.db.query(`SELECT cardinality(failed_at) AS n FROM login_failures WHERE user_login_id = 'alice'`);
    expect(rows).toEqual([]);
    expect(await h.a.login('local', 'Local-pw-1')).toMatchObject({ status: 200, body: OK });
    const degraded = await ready();
    expect(degraded.status).toBe(200);
    expect(degraded.body.info?.directory).toMatchObject({ status: 'up', degraded: ['directory'] });
    expect(await metrics(h.baseUrl)).toMatch(/^upstream_circuit_state\{[^}]*upstream="directory"[^}]*\} 2$/m);

    await slapd.restart();
    const deadline = Date.now() + 15_000;
    let last = await h.a.login('alice', LDAP.users.alice);
    while (last.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      last = await h.a.login('alice', LDAP.users.alice);
    }
    expect(last).toMatchObject({ status: 200, body: OK });
    expect((await ready()).body.info?.directory).toMatchObject({ status: 'up' });
    expect((await ready()).body.info?.directory?.degraded).toBeUndefined();
  });
});
