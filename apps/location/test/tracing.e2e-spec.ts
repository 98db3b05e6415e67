/**
 * OpenTelemetry tracing of the compiled location service: a real OTLP/HTTP receiver on
 * loopback, the service started as a process with `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at
 * it, Redis as the cache and a fake AMap as the upstream, and one cache miss.
 */
import { resolve } from 'node:path';
import { TestLbsClient } from '@geoaccount/client/internal';
import { OTLP_SPAN_KIND, OtlpReceiver, type ServiceProcess, buildService, startServiceProcess, requestLogLines } from '@geoaccount/testing';
import { FakeAmap } from './support/fake-amap';
import { REDIS_URL, deletePrefix, runPrefix } from './support/location-session';

const APP = { appToken: 'app-0b5e0000000000d7', secret: 'location-trace-secret-7e21', aesKey: 'location-trace-aes', aesMode: 'gcm' };

describe('tracing of the location service', () => {
  let main: string;
  const amap = new FakeAmap('amap-key-6c0d2a91', 'amap-private-key-41be7f');
  const prefix = runPrefix('tracing');
  let receiver: OtlpReceiver;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    main = buildService(resolve(__dirname, '..'));
    await amap.start();
    receiver = await OtlpReceiver.start();
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await amap.stop();
    await receiver?.stop();
    await deletePrefix(REDIS_URL, prefix);
  });

  it('exports the lbsQuery server span, its Redis spans and the upstream call under it, and sends the trace upstream', async () => {
    service = await startServiceProcess(main, {
      GEOCODER: 'amap',
      AMAP_KEY: amap.key,
      AMAP_SECRET: amap.secret!,
      AMAP_BASE_URL: amap.url,
      REDIS_URL,
      CACHE_KEY_PREFIX: prefix,
      APP_CREDENTIALS: JSON.stringify([APP]),
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    const client = new TestLbsClient({ baseUrl: service.url, appToken: APP.appToken, secret: APP.secret });
    const miss = await client.lbsQuery({ longitude: '116.391275', latitude: '39.907501', merId: 'M-TRACE' });
    expect([miss.status, miss.body.code, miss.body.lbsStat]).toEqual([200, '000', '1']);
    const requestId = miss.headers.get('x-request-id');

    const isServer = (s: { kind: number; name: string }) => s.kind === OTLP_SPAN_KIND.server && s.name === 'GET /lbsapi/api/lbsQuery';
    const spans = await receiver.waitFor((all) => all.some(isServer));
    const server = spans.find(isServer)!;
    expect(server).toMatchObject({
      service: 'location',
      parentSpanId: '',
      attributes: expect.objectContaining({ 'http.route': '/lbsapi/api/lbsQuery' }),
    });
    expect(receiver.rejected).toEqual([]);

    // the cache lookup and the cache write are Redis client spans under the server span
    await receiver.waitFor(() => receiver.descendantsOf(server).filter((s) => s.scope.includes('instrumentation-ioredis')).length >= 2);
    const redis = receiver.descendantsOf(server).filter((s) => s.scope.includes('instrumentation-ioredis'));
    expect(redis.every((s) => s.kind === OTLP_SPAN_KIND.client)).toBe(true);
    expect(redis.some((s) => s.parentSpanId === server.spanId)).toBe(true);

    // the upstream call is an HTTP client span under it, and AMap got its trace context
    await receiver.waitFor(() =>
      receiver.descendantsOf(server).some((s) => s.kind === OTLP_SPAN_KIND.client && s.scope.includes('instrumentation-http')),
    );
    const upstream = receiver
      .descendantsOf(server)
      .find((s) => s.kind === OTLP_SPAN_KIND.client && s.scope.includes('instrumentation-http'))!;
    expect(upstream.parentSpanId).toBe(server.spanId);
    expect(amap.requests.map((r) => r.traceparent)).toEqual([`00-${server.traceId}-${upstream.spanId}-01`]);

    // neither the AMap key and signature nor the caller's signature left the process in a span
    const exported = JSON.stringify(receiver.spans);
    for (const value of [amap.key, amap.secret!, APP.secret, amap.requests[0]!.query.sig!]) expect(exported).not.toContain(value);
    expect(exported).not.toMatch(/[0-9a-f]{64}/);

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    const lines = requestLogLines(service.output(), String(requestId));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) expect(line).toMatchObject({ trace_id: server.traceId });
  }, 120_000);
});
