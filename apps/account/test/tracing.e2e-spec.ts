/**
 * OpenTelemetry tracing of the compiled account service: a real OTLP/HTTP receiver on
 * loopback, the service started as a process with `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at
 * it, and an account write carrying a W3C `traceparent`.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { TestAccountClient } from '@geoaccount/client/internal';
import { OTLP_SPAN_KIND, OtlpReceiver, type ServiceProcess, buildService, startServiceProcess, requestLogLines } from '@geoaccount/testing';
import { APP_A } from './support/account-harness';
import { createTestDatabase, dropTestDatabase } from './support/database';

describe('tracing of the account service', () => {
  let main: string;
  let database: { name: string; url: string };
  let receiver: OtlpReceiver;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    main = buildService(resolve(__dirname, '..'));
    database = await createTestDatabase();
    receiver = await OtlpReceiver.start();
  }, 300_000);

  afterEach(async () => {
    await service?.stop();
    service = undefined;
    receiver.reset();
  });

  afterAll(async () => {
    await receiver?.stop();
    if (database) await dropTestDatabase(database.name);
  });

  const start = (env: Record<string, string>) =>
    startServiceProcess(main, {
      DATABASE_URL: database.url,
      APP_CREDENTIALS: JSON.stringify([APP_A]),
      NODE_ENV: 'production',
      PII_KEYS: JSON.stringify([{ id: 'k1', key: randomBytes(32).toString('base64') }]),
      LOG_LEVEL: 'info',
      ...env,
    });

  it('exports the server span named by route, its PostgreSQL spans under it, keeps the caller trace and logs its id', async () => {
    service = await start({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    const client = new TestAccountClient({ baseUrl: service.url, appToken: APP_A.appToken, secret: APP_A.secret });
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const created = await client.createAuth(
      'T100',
      { auth_name: 'Traced', auth_state: '1' },
      { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } },
    );
    expect([created.status, created.body.response_code]).toEqual([201, '90000']);
    const requestId = created.headers.get('x-request-id');

    const spans = await receiver.waitFor((all) => all.some((s) => s.traceId === traceId && s.kind === OTLP_SPAN_KIND.server));
    const server = spans.find((s) => s.traceId === traceId && s.kind === OTLP_SPAN_KIND.server)!;
    expect(server).toMatchObject({
      service: 'account',
      name: 'POST /account/v1.0.1/auths/:auth_id',
      parentSpanId: callerSpanId,
      attributes: expect.objectContaining({ 'http.route': '/account/v1.0.1/auths/:auth_id' }),
    });
    expect(receiver.rejected).toEqual([]);

    // The INSERT (and the reads before it) are PostgreSQL client spans of the same trace,
    // under the server span.
    await receiver.waitFor(() =>
      receiver.descendantsOf(server).some((s) => s.scope.includes('instrumentation-pg') && /INSERT/i.test(s.name)),
    );
    const pg = receiver.descendantsOf(server).filter((s) => s.scope.includes('instrumentation-pg'));
    expect(pg.filter((s) => s.kind === OTLP_SPAN_KIND.client).length).toBeGreaterThanOrEqual(1);
    expect(pg.some((s) => s.parentSpanId === server.spanId)).toBe(true);
    for (const span of pg) expect(span.attributes['db.system.name'] ?? span.attributes['db.system']).toBe('postgresql');

    // Nothing secret left the process in a span.
    const exported = JSON.stringify(receiver.spans);
    for (const value of [APP_A.secret, APP_A.aesKey]) expect(exported).not.toContain(value);
    expect(exported).not.toMatch(/[0-9a-f]{64}/);

    // Every line logged for the request carries the caller's trace id.
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    const lines = requestLogLines(service.output(), String(requestId));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) expect(line).toMatchObject({ trace_id: traceId, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
  }, 120_000);

  it('exports nothing and writes no trace id when no endpoint is set', async () => {
    service = await start({});
    const client = new TestAccountClient({ baseUrl: service.url, appToken: APP_A.appToken, secret: APP_A.secret });
    const traceId = randomBytes(16).toString('hex');
    const created = await client.createAuth(
      'T200',
      { auth_name: 'Untraced' },
      { headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } },
    );
    expect(created.status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.spans).toEqual([]);
    expect(service.output()).not.toContain('trace_id');
  }, 60_000);
});
