import { Writable } from 'node:stream';
import { AppRegistry, DEMO_APP, signLbs } from '@geoaccount/signing';
import pino from 'pino';
import { FakeAccount, type FakeInternalApp } from '../../test/support/fake-account';
import { AppsPoller } from './apps-poller';

const TOKEN = 'internal-token-of-at-least-32-characters';
const APP_A = 'app-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const SECRET_1 = 'first-secret-0123456789';
const SECRET_2 = 'second-secret-0123456789';

function app(token: string, ...credentials: [string, string][]): FakeInternalApp {
  return {
    app_token: token,
    aes_mode: 'gcm',
    credentials: credentials.map(([id, secret]) => ({ credential_id: id, secret, aes_key: `aes-${id}`, expire_time: '' })),
  };
}

/** A logger whose lines are kept. */
function captured(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** True when the registry accepts a location signature made with `secret` for the app. */
function accepts(registry: AppRegistry, appToken: string, secret: string): boolean {
  const expected = signLbs(secret, 'lbsQuery', ['x'], { x: '1' });
  return !!registry.credentialsOf(appToken)?.some((c) => signLbs(c.hmacKey, 'lbsQuery', ['x'], { x: '1' }) === expected);
}

describe('AppsPoller against a stand-in account service', () => {
  let account: FakeAccount;
  let poller: AppsPoller | undefined;

  beforeEach(async () => {
    account = await new FakeAccount(TOKEN).start();
  });
  afterEach(async () => {
    await poller?.stop();
    poller = undefined;
    await account.close();
  });

  function make(registry: AppRegistry, timeoutMs = 1000) {
    const log = captured();
    poller = new AppsPoller({ baseUrl: account.url, token: TOKEN, timeoutMs, intervalMs: 60_000 }, registry, log.logger, () => 0);
    return { poller, lines: log.lines };
  }

  it('reads the apps with the bearer token and accepts each active secret', async () => {
    account.apps = [app(APP_A, ['c1', SECRET_1], ['c2', SECRET_2])];
    const registry = new AppRegistry([]);
    const { poller } = make(registry);
    await expect(poller.refresh()).resolves.toBe(true);
    expect(account.requests).toEqual([{ method: 'GET', path: '/internal/v1/apps', authorization: `Bearer ${TOKEN}` }]);
    expect(registry.credentialsOf(APP_A)?.map((c) => c.credentialId)).toEqual(['c1', 'c2']);
    expect(registry.isConfigured(APP_A)).toBe(false);
    expect(accepts(registry, APP_A, SECRET_1)).toBe(true);
    expect(accepts(registry, APP_A, SECRET_2)).toBe(true);
    expect(accepts(registry, APP_A, 'another-secret-0123456')).toBe(false);
  });

  it('replaces the list on each answer: a revoked credential or a removed app is gone', async () => {
    account.apps = [app(APP_A, ['c1', SECRET_1], ['c2', SECRET_2])];
    const registry = new AppRegistry([]);
    const { poller } = make(registry);
    await poller.refresh();
    account.apps = [app(APP_A, ['c2', SECRET_2])];
    await poller.refresh();
    expect(accepts(registry, APP_A, SECRET_1)).toBe(false);
    expect(accepts(registry, APP_A, SECRET_2)).toBe(true);
    account.apps = [];
    await poller.refresh();
    expect(registry.get(APP_A)).toBeUndefined();
  });

  it.each([
    ['down (HTTP 503)', { kind: 'http', status: 503 }, /HTTP 503/],
    ['refusing the token (HTTP 401)', { kind: 'http', status: 401 }, /HTTP 401/],
    ['answering something that is not JSON', { kind: 'body', text: '<html>' }, /not JSON/],
    ['answering JSON of another shape', { kind: 'body', text: '{"apps":[]}' }, /app_list/],
    ['too slow', { kind: 'hang' }, /no answer within 300 ms/],
  ] as const)('keeps the last good list while the account service is %s, and logs it once', async (_label, mode, reason) => {
    account.apps = [app(APP_A, ['c1', SECRET_1])];
    const registry = new AppRegistry([]);
    const { poller, lines } = make(registry, 300);
    await poller.refresh();
    const before = poller.lastSuccessAt;
    account.mode = mode;
    await expect(poller.refresh()).resolves.toBe(false);
    await expect(poller.refresh()).resolves.toBe(false);
    expect(accepts(registry, APP_A, SECRET_1)).toBe(true);
    expect(poller.lastSuccessAt).toBe(before);
    const warnings = lines.filter((l) => l.msg === 'apps of the account service unavailable; keeping the last good list');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.reason).toMatch(reason);
    account.mode = { kind: 'ok' };
    account.apps = [];
    await expect(poller.refresh()).resolves.toBe(true);
    expect(registry.get(APP_A)).toBeUndefined();
    expect(lines.some((l) => l.msg === 'apps of the account service available again')).toBe(true);
  });

  it('keeps the apps of APP_CREDENTIALS always, and an app token in both is the configured one', async () => {
    account.apps = [app(DEMO_APP.appToken, ['c1', SECRET_1]), app(APP_A, ['c2', SECRET_2])];
    const registry = new AppRegistry([DEMO_APP]);
    const { poller } = make(registry);
    await poller.refresh();
    expect(accepts(registry, DEMO_APP.appToken, DEMO_APP.secret)).toBe(true);
    expect(accepts(registry, DEMO_APP.appToken, SECRET_1)).toBe(false);
    expect(registry.isConfigured(DEMO_APP.appToken)).toBe(true);
    account.apps = [];
    await poller.refresh();
    expect(accepts(registry, DEMO_APP.appToken, DEMO_APP.secret)).toBe(true);
    expect(registry.get(APP_A)).toBeUndefined();
  });

  it('never logs a secret or AES key', async () => {
    account.apps = [app(APP_A, ['c1', SECRET_1]), { ...app('app-0b', ['c3', 'tiny-s3cr3t']) }];
    const registry = new AppRegistry([]);
    const { poller, lines } = make(registry);
    await poller.refresh();
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [SECRET_1, 'tiny-s3cr3t', 'aes-c1', 'aes-c3', TOKEN]) expect(text).not.toContain(secret);
  });

  it('reads again every interval until stopped, with jitter shortening the wait', async () => {
    account.apps = [app(APP_A, ['c1', SECRET_1])];
    const registry = new AppRegistry([]);
    const log = captured();
    // A random of 1 waits 80 % of the interval.
    poller = new AppsPoller({ baseUrl: account.url, token: TOKEN, timeoutMs: 1000, intervalMs: 100 }, registry, log.logger, () => 1);
    await poller.start();
    const deadline = Date.now() + 5000;
    while (account.appsReads < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(account.appsReads).toBeGreaterThanOrEqual(4);
    await poller.stop();
    const reads = account.appsReads;
    await new Promise((r) => setTimeout(r, 300));
    expect(account.appsReads).toBe(reads);
  });
});
