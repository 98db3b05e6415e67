/**
 * The apps learnt from the account service (docs/contract.md §14), against a stand-in for its
 * internal API on a real port: both active secrets accepted, a credential refused at its
 * expire_time at once, a removed app refused after a read, the last good list kept while the
 * account service is down, the configured apps kept, and the uses reported in batches.
 */
import type { INestApplication } from '@nestjs/common';
import { LbsClient } from '@geoaccount/client';
import { AppRegistry, DEMO_APP } from '@geoaccount/signing';
import { createLocationApp } from '../src/app';
import { loadLocationConfig } from '../src/config/location.config';
import { FakeAccount, type FakeInternalApp } from './support/fake-account';
import { LogCapture } from './support/location-session';

const TOKEN = 'internal-token-of-at-least-32-characters';
const APP = 'app-0123456789abcdef0123456789abcdef';
const OLD = { credential_id: 'cred-old', secret: 'old-secret-0123456789', aes_key: 'old-aes-key', expire_time: '' };
const NEW = { credential_id: 'cred-new', secret: 'new-secret-0123456789', aes_key: 'new-aes-key', expire_time: '' };
const TIANANMEN = { longitude: '116.391275', latitude: '39.907501' };

function controlApp(...credentials: FakeInternalApp['credentials']): FakeInternalApp {
  return { app_token: APP, aes_mode: 'gcm', credentials };
}

async function until(what: () => Promise<boolean> | boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await what())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

describe('location with APPS_URL (apps of the account service)', () => {
  let account: FakeAccount;
  let app: INestApplication;
  let url: string;
  const logs = new LogCapture();
  const client = (secret: string, userToken = APP) => new LbsClient({ retries: 0, baseUrl: url, userToken, secret });
  const status = async (secret: string, userToken = APP) => (await client(secret, userToken).lbsQuery(TIANANMEN)).status;

  beforeAll(async () => {
    account = await new FakeAccount(TOKEN).start();
    account.apps = [controlApp(OLD)];
    const config = loadLocationConfig({
      LOG_LEVEL: 'info',
      APPS_URL: account.url,
      INTERNAL_TOKEN: TOKEN,
      APPS_POLL_SECONDS: '1',
      APPS_TIMEOUT_MS: '500',
      CREDENTIAL_USE_FLUSH_SECONDS: '1',
    });
    app = await createLocationApp(config, new AppRegistry([DEMO_APP]), { logStream: logs });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(async () => {
    await app?.close();
    await account?.close();
  });

  it('has read the apps before listening: a control-plane app is accepted from the first request', async () => {
    expect(account.appsReads).toBeGreaterThanOrEqual(1);
    const res = await client(OLD.secret).lbsQuery(TIANANMEN);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: '000', provinceCode: '110000' });
  });

  it('accepts each of two active secrets, and neither after both are gone', async () => {
    account.apps = [controlApp(OLD, NEW)];
    const took = await until(async () => (await status(NEW.secret)) === 200, 15_000);
    process.stdout.write(`location: a new credential accepted after ${took} ms\n`);
    expect(await status(OLD.secret)).toBe(200);
    const res = await client('another-secret-012345').lbsQuery(TIANANMEN);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: '100', resultDesc: 'bad signature', lbsStat: '0' });
  });

  it('refuses a credential at its expire_time at once, without waiting for a read', async () => {
    const expireAt = Date.now() + 2500;
    account.apps = [controlApp({ ...OLD, expire_time: new Date(expireAt).toISOString() }, NEW)];
    const reads = account.appsReads;
    await until(() => account.appsReads >= reads + 2, 5000);
    expect(await status(OLD.secret)).toBe(200);
    // No read answers differently from now on: the refusal comes from the time alone.
    await until(() => Date.now() >= expireAt, 5000);
    const res = await client(OLD.secret).lbsQuery(TIANANMEN);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: '100', resultDesc: 'bad signature', lbsStat: '0' });
    expect(await status(NEW.secret)).toBe(200);
  });

  it('keeps the last good list while the account service is down, then takes the next one', async () => {
    account.apps = [controlApp(NEW)];
    await until(async () => (await status(OLD.secret)) === 401, 15_000);
    account.mode = { kind: 'http', status: 503 };
    const reads = account.appsReads;
    await until(() => account.appsReads >= reads + 2, 5000);
    expect(await status(NEW.secret)).toBe(200);
    account.mode = { kind: 'hang' };
    await new Promise((r) => setTimeout(r, 1500));
    expect(await status(NEW.secret)).toBe(200);
    expect(logs.lines.filter((l) => l.msg === 'apps of the account service unavailable; keeping the last good list')).toHaveLength(1);
    account.mode = { kind: 'ok' };
    account.apps = [];
    const took = await until(async () => (await status(NEW.secret)) === 401, 15_000);
    process.stdout.write(`location: a removed (disabled) app refused after ${took} ms\n`);
  });

  it('keeps its APP_CREDENTIALS apps whatever the account service says, the configured secret winning', async () => {
    account.apps = [{ app_token: DEMO_APP.appToken, credentials: [{ ...NEW }] }];
    const reads = account.appsReads;
    await until(() => account.appsReads >= reads + 2, 5000);
    expect(await status(DEMO_APP.secret, DEMO_APP.appToken)).toBe(200);
    expect(await status(NEW.secret, DEMO_APP.appToken)).toBe(401);
    account.mode = { kind: 'http', status: 500 };
    expect(await status(DEMO_APP.secret, DEMO_APP.appToken)).toBe(200);
    account.mode = { kind: 'ok' };
  });

  it('reports the uses of control-plane credentials in batches, never one call per request', async () => {
    account.apps = [controlApp(NEW)];
    await until(async () => (await status(NEW.secret)) === 200, 15_000);
    const reportsBefore = account.reports.length;
    const started = Date.now();
    for (let i = 0; i < 30; i++) expect(await status(NEW.secret)).toBe(200);
    await until(() => account.reports.slice(reportsBefore).some((r) => r.uses.some((u) => u.credential_id === NEW.credential_id)), 5000);
    const seconds = (Date.now() - started) / 1000;
    const reports = account.reports.slice(reportsBefore);
    // One report a second at most (CREDENTIAL_USE_FLUSH_SECONDS=1), whatever the number of requests.
    expect(reports.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    const use = reports.flatMap((r) => r.uses).find((u) => u.credential_id === NEW.credential_id)!;
    // The minute of the use (last_used_time has minute resolution).
    expect(Date.parse(use.time)).toBeGreaterThanOrEqual(started - 60_000);
    expect(Date.parse(use.time) % 60_000).toBe(0);
    // The configured app has no credential id: never reported.
    expect(JSON.stringify(account.reports)).not.toContain('""');
    expect(account.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('never logs a secret, an AES key or the internal token', () => {
    const text = JSON.stringify(logs.lines);
    for (const secret of [OLD.secret, NEW.secret, OLD.aes_key, NEW.aes_key, TOKEN]) expect(text).not.toContain(secret);
  });
});
