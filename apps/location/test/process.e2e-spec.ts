/**
 * The compiled location service as a process, the way it runs in a container: its log
 * output after a request sequence with secrets and upstream failures, and a SIGTERM under
 * load while upstream calls are in flight.
 */
import { resolve } from 'node:path';
import { TestLbsClient } from '@geoaccount/client/internal';
import { LATE_MS, type ServiceProcess, buildService, driveLoad, printFigure, startServiceProcess } from '@geoaccount/testing';
import { FakeAccount } from './support/fake-account';
import { FakeAmap } from './support/fake-amap';
import { deletePrefix, runPrefix } from './support/location-session';

const APP = { appToken: 'app-0b5e0000000000c1', secret: 'location-ops-secret-5d1c9a', aesKey: 'location-ops-aes', aesMode: 'gcm' };
const SHUTDOWN_TIMEOUT_MS = 10_000;

describe('the location service process', () => {
  let main: string;
  const amap = new FakeAmap('amap-key-3f9e1b7c', 'amap-private-key-8a2d4e');
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    main = buildService(resolve(__dirname, '..'));
    await amap.start();
  }, 300_000);

  // Each process gets its own cache key prefix: REDIS_URL (inherited, as in CI) may point at a
  // Redis shared with other runs.
  const prefixes: string[] = [];

  afterEach(async () => {
    await service?.stop();
    service = undefined;
    amap.reset();
    const redisUrl = process.env.REDIS_URL;
    if (redisUrl) for (const prefix of prefixes.splice(0)) await deletePrefix(redisUrl, prefix);
  });

  afterAll(() => amap.stop());

  const start = (env: Record<string, string>) =>
    startServiceProcess(main, {
      GEOCODER: 'amap',
      AMAP_KEY: amap.key,
      AMAP_SECRET: amap.secret!,
      AMAP_BASE_URL: amap.url,
      APP_CREDENTIALS: JSON.stringify([APP]),
      NODE_ENV: 'production',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      CACHE_KEY_PREFIX: prefixes[prefixes.push(runPrefix('process')) - 1]!,
      ...env,
    });

  it('never logs a signature, the app secret or the AMap key and private key, at debug level', async () => {
    service = await start({ LOG_LEVEL: 'debug', UPSTREAM_RETRIES: '1', UPSTREAM_BREAKER_FAILURES: '3' });
    const client = new TestLbsClient({ retries: 0, baseUrl: service.url, appToken: APP.appToken, secret: APP.secret });
    const tiananmen = { longitude: '116.391275', latitude: '39.907501', merId: 'M-OPS' };
    expect((await client.lbsQuery(tiananmen)).body).toMatchObject({ code: '000', lbsStat: '1' });
    expect((await client.lbsQuery(tiananmen)).body).toMatchObject({ code: '000', lbsStat: '2' });
    expect((await client.addressQuery({ city: '北京市', address: '长安街1号' })).status).toBe(200);
    expect((await client.baseStationQuery({ mcc: '460', mnc: '0', lac: '1', cellid: '99999' })).status).toBeGreaterThanOrEqual(200);
    amap.mode = { kind: 'http', status: 500 };
    for (let i = 0; i < 4; i++) expect((await client.lbsQuery({ longitude: `116.40${i}`, latitude: '39.91' })).status).toBe(503);
    amap.mode = { kind: 'status0', infocode: '10001', info: 'INVALID_USER_KEY' };
    await client.lbsQuery({ longitude: '121.47', latitude: '31.23' });
    amap.reset();
    const forged = await client.call('lbsQuery', tiananmen, { signature: 'c'.repeat(64), extra: { secret: APP.secret } });
    expect([forged.status, forged.body.code]).toEqual([401, '100']);
    expect((await fetch(`${service.url}/lbsapi/api/nowhere?signature=${'d'.repeat(64)}&key=${amap.key}`)).status).toBe(404);

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    const log = service.output();
    const lines = log.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.filter((l) => l.includes('"msg":"lbs request"')).length).toBeGreaterThanOrEqual(9);
    expect(lines.some((l) => l.includes('"context":"Upstream"'))).toBe(true);
    for (const value of [APP.secret, APP.aesKey, amap.key, amap.secret!]) expect(log).not.toContain(value);
    expect(log).not.toMatch(/[0-9a-fA-F]{64}/);
  }, 120_000);

  it('starts in production with no APP_CREDENTIALS when APPS_URL is set, serving the apps of the account service (docs/contract.md §1)', async () => {
    const token = 'internal-token-of-the-process-test-0123';
    const account = await new FakeAccount(token).start();
    const credential = { credential_id: 'cred-1', secret: 'control-plane-secret-4e2a', aes_key: 'control-plane-aes', expire_time: '' };
    account.apps = [{ app_token: 'app-0c0ffee0000000000000000000000001', aes_mode: 'gcm', credentials: [credential] }];
    try {
      service = await start({ APP_CREDENTIALS: '', APPS_URL: account.url, INTERNAL_TOKEN: token, GEOCODER: 'offline' });
      const client = new TestLbsClient({ retries: 0, baseUrl: service.url, appToken: 'app-0c0ffee0000000000000000000000001', secret: credential.secret });
      expect((await client.lbsQuery({ longitude: '116.391275', latitude: '39.907501' })).status).toBe(200);
      const demo = new TestLbsClient({ retries: 0, baseUrl: service.url, appToken: APP.appToken, secret: APP.secret });
      expect((await demo.lbsQuery({ longitude: '116.391275', latitude: '39.907501' })).status).toBe(401);
      service.child.kill('SIGTERM');
      expect(await service.exited).toEqual({ code: 0, signal: null });
      expect(service.output()).toContain(`apps from ${account.url} and 0 configured`);
      for (const value of [credential.secret, credential.aes_key, token]) expect(service.output()).not.toContain(value);
    } finally {
      await account.close();
    }
  }, 120_000);

  it('finishes every request under load on SIGTERM, upstream calls in flight included, and exits 0 within SHUTDOWN_TIMEOUT_MS', async () => {
    // every lookup is a miss (no two points alike) answered by the upstream after 150 ms
    amap.mode = { kind: 'delay', ms: 150 };
    service = await start({ LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '1000', UPSTREAM_TIMEOUT_MS: '3000' });
    const running = service;
    const client = new TestLbsClient({ retries: 0, baseUrl: running.url, appToken: APP.appToken, secret: APP.secret });

    // Like a load balancer: send while the instance is ready, stop once its readiness fails.
    let signalledAt: number | undefined = undefined;
    let notReadyAt: number | undefined;
    let answered = 0;
    const watcher = (async () => {
      while (notReadyAt === undefined) {
        await new Promise((r) => setTimeout(r, 100));
        const status = await fetch(`${running.url}/health/ready`).then((r) => r.status, () => 0);
        if (status !== 200 && signalledAt !== undefined) notReadyAt = Date.now();
      }
    })();
    const load = driveLoad(
      16,
      async (i) => {
        const res = await client.lbsQuery({ longitude: (116.3 + i / 100_000).toFixed(6), latitude: '39.907501' });
        const right = res.status === 200 && res.body.code === '000' && res.body.lbsStat === '1';
        if (right) answered++;
        return right ? undefined : `${res.status} ${JSON.stringify(res.body)}`;
      },
      () => notReadyAt !== undefined,
      () => signalledAt,
    );
    // Signal once the load has really run (a loaded machine answers fewer requests a second).
    for (const until = Date.now() + 60_000; answered < 25 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    signalledAt = Date.now();
    running.child.kill('SIGTERM');
    const exitedAt = running.exited.then(() => Date.now());
    await watcher;
    expect((await fetch(`${running.url}/health/ready`)).status).toBe(503);
    const result = await load;
    expect(await running.exited).toEqual({ code: 0, signal: null });
    // Exit code 0 says it finished before its own SHUTDOWN_TIMEOUT_MS (past it, it exits 1); the
    // wall clock only bounds it generously, as a loaded machine delays the child's exit.
    printFigure('SIGTERM under load: exited after', (await exitedAt) - signalledAt);
    expect((await exitedAt) - signalledAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS + LATE_MS);
    expect(result.failures).toEqual([]);
    expect(result.refused).toBe(0);
    expect(result.ok).toBeGreaterThan(20); // the load really ran
    expect(result.okAfter).toBeGreaterThan(0);
    const stopped = /"msg":"stopped after (\d+) ms"/.exec(running.output());
    expect(stopped).not.toBeNull();
    console.log(`SIGTERM under load: ${result.ok} answers (${result.okAfter} after the signal), 0 failed, stopped after ${stopped![1]} ms`);
  }, 120_000);
});
