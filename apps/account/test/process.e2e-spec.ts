/**
 * The compiled account service as a process, the way it runs in a container: its log
 * output after a full request sequence carrying secrets, and a SIGTERM under load.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { TestAccountClient } from '@geoaccount/client/internal';
import { LATE_MS, type ServiceProcess, buildService, driveLoad, printFigure, startServiceProcess } from '@geoaccount/testing';
import { APP_A } from './support/account-harness';
import { createTestDatabase, dropTestDatabase } from './support/database';

const SHUTDOWN_TIMEOUT_MS = 10_000;
/** The personal-data key of these runs (production refuses to start without one); never logged. */
const PII_KEY = randomBytes(32).toString('base64');

describe('the account service process', () => {
  let main: string;
  let database: { name: string; url: string };
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    main = buildService(resolve(__dirname, '..'));
    database = await createTestDatabase();
  }, 300_000);

  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  afterAll(async () => {
    if (database) await dropTestDatabase(database.name);
  });

  const start = (env: Record<string, string> = {}) =>
    startServiceProcess(main, {
      DATABASE_URL: database.url,
      APP_CREDENTIALS: JSON.stringify([APP_A]),
      NODE_ENV: 'production',
      PII_KEYS: JSON.stringify([{ id: 'k1', key: PII_KEY }]),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      // The load below is 12 workers of logins from one app: no login budget, room to queue.
      LOGIN_RATE_LIMIT_PER_MINUTE: '0',
      PASSWORD_HASH_QUEUE: '1000',
      ...env,
    });

  it('never logs a password, signature, secret, id number or mobile, at debug level', async () => {
    service = await start({ LOG_LEVEL: 'debug' });
    const client = new TestAccountClient({ retries: 0, baseUrl: service.url, appToken: APP_A.appToken, secret: APP_A.secret, aesKey: APP_A.aesKey, aesMode: APP_A.aesMode });
    const secrets = {
      user_pwd: 'Plain-Pass-9f2c1',
      cert_id: '110101199003071234',
      cert_id_encrypt: 'Q2VydEVuYzEyMw==',
      user_mobile: '13912345678',
      user_mobile_encrypt: 'TW9iRW5jNDU2Nw==',
    };
    const newPassword = 'Next-Pass-77aa31';
    const expectCode = async (p: Promise<{ status: number; body: Record<string, unknown> }>, status: number, code: string) => {
      const res = await p;
      expect([res.status, res.body.response_code]).toEqual([status, code]);
    };

    await expectCode(client.registerUser('carol', { user_name: 'Carol', user_type: 'C', cert_type: '10', ...secrets }), 201, '90000');
    await expectCode(client.registerUser('carol', { user_name: 'Carol', user_type: 'C', user_pwd: secrets.user_pwd }), 409, '20020');
    await expectCode(client.login('carol', secrets.user_pwd), 200, '90000');
    await expectCode(client.login('carol', 'Wrong-Pass-000'), 401, '20441');
    await expectCode(client.loginEncrypted('carol', 'bm90IGEgY2lwaGVydGV4dA=='), 400, '90101');
    await expectCode(client.modifyUser('carol', { user_pwd: newPassword, user_mobile: '13800001111', cert_id: '110101199003075678' }), 201, '90000');
    await expectCode(client.login('carol', newPassword), 200, '90000');
    await expectCode(client.getUser('carol'), 200, '90000');
    await expectCode(client.listUsers({ user_login_ids: 'carol' }), 200, '90000');
    // secrets in a query string, a wrong signature, an Authorization header, an unknown route
    await expectCode(client.getUser('carol', { signature: 'a'.repeat(64), unsigned: { user_pwd: secrets.user_pwd, user_mobile: secrets.user_mobile } }), 401, '90401');
    await expectCode(client.listUsers({}, { headers: { Authorization: `Bearer ${APP_A.secret}`, Cookie: `s=${APP_A.secret}` } }), 200, '90000');
    const unknown = await fetch(`${service.url}/account/v1.0.1/nowhere?user_pwd=${secrets.user_pwd}&signature=${'b'.repeat(64)}`);
    expect(unknown.status).toBe(404);

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    const log = service.output();
    const lines = log.split('\n').filter((l) => l.startsWith('{'));
    // the sequence was logged, as JSON with request ids
    expect(lines.length).toBeGreaterThan(12);
    expect(lines.filter((l) => /"requestId":"[0-9a-f-]{36}"/.test(l) && l.includes('/account/v1.0.1/')).length).toBeGreaterThanOrEqual(12);
    for (const value of [...Object.values(secrets), newPassword, 'Wrong-Pass-000', '13800001111', '110101199003075678', APP_A.secret, APP_A.aesKey, PII_KEY]) {
      expect(log).not.toContain(value);
    }
    // no signature (64 hex digits) nor password hash
    expect(log).not.toMatch(/[0-9a-fA-F]{64}/);
    expect(log).not.toContain('$argon2');
  }, 120_000);

  it('finishes every request under load on SIGTERM and exits 0 within SHUTDOWN_TIMEOUT_MS', async () => {
    service = await start({ LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '1000' });
    const running = service;
    const client = new TestAccountClient({ retries: 0, baseUrl: running.url, appToken: APP_A.appToken, secret: APP_A.secret, aesKey: APP_A.aesKey, aesMode: APP_A.aesMode });
    expect((await client.registerUser('loader', { user_name: 'Loader', user_type: 'C', user_pwd: 'Load-Pass-1' })).status).toBe(201);

    // Like a load balancer: send while the instance is ready, stop sending once its readiness
    // probe fails (polled every 100 ms; the drain period is much longer).
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
      12,
      async (i) => {
        // a fast query and a slow login (argon2id) in turn
        const res = i % 3 === 0 ? await client.login('loader', 'Load-Pass-1') : await client.listUsers({ user_login_ids: 'loader' });
        const body = res.body as { response_code?: string };
        if (res.status === 200 && body.response_code === '90000') answered++;
        return res.status === 200 && body.response_code === '90000' ? undefined : `${res.status} ${JSON.stringify(res.body)}`;
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
    const ready = await fetch(`${running.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { error: Record<string, unknown> }).error.shutdown).toEqual({ status: 'down', message: 'shutting down' });
    const result = await load;
    expect(await running.exited).toEqual({ code: 0, signal: null });
    // Exit code 0 says it finished before its own SHUTDOWN_TIMEOUT_MS (past it, it exits 1); the
    // wall clock only bounds it generously, as a loaded machine delays the child's exit.
    printFigure('SIGTERM under load: exited after', (await exitedAt) - signalledAt);
    expect((await exitedAt) - signalledAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS + LATE_MS);
    expect(result.failures).toEqual([]);
    expect(result.ok).toBeGreaterThan(20); // the load really ran (a loaded 2-core machine serves far fewer argon2 logins)
    expect(result.refused).toBe(0);
    // requests in flight at the signal were answered
    expect(result.okAfter).toBeGreaterThan(0);
    const stopped = /"msg":"stopped after (\d+) ms"/.exec(running.output());
    expect(stopped).not.toBeNull();
    console.log(`SIGTERM under load: ${result.ok} answers (${result.okAfter} after the signal), 0 failed, stopped after ${stopped![1]} ms`);
  }, 120_000);
});
