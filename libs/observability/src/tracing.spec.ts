import type { TracingSettings } from './tracing';

// The SDK side is replaced by a recorder: these tests are about when it is loaded and with what.
const started: TracingSettings[] = [];
let sdkLoads = 0;
jest.mock('./tracing-sdk', () => {
  sdkLoads++;
  return {
    startTracingSdk: (settings: TracingSettings) => {
      started.push(settings);
      return { activeIds: () => ({ trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) }), startServerSpan: () => undefined, shutdown: async () => undefined };
    },
  };
});

function freshTracing(): typeof import('./tracing') {
  let loaded: typeof import('./tracing') | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual<typeof import('./tracing')>('./tracing');
  });
  return loaded!;
}

beforeEach(() => {
  started.length = 0;
  sdkLoads = 0;
});

describe('tracingSettings', () => {
  const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };

  it('is off without an OTLP endpoint, with OTEL_SDK_DISABLED=true and with OTEL_TRACES_EXPORTER=none', () => {
    const { tracingSettings } = freshTracing();
    expect(tracingSettings('account', {})).toBeUndefined();
    expect(tracingSettings('account', { OTEL_TRACES_EXPORTER: 'otlp' })).toBeUndefined();
    expect(tracingSettings('account', { ...ENDPOINT, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracingSettings('account', { ...ENDPOINT, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('is on with either endpoint variable, with the standard defaults', () => {
    const { tracingSettings } = freshTracing();
    const expected = { serviceName: 'account', protocol: 'http/protobuf', sampler: { kind: 'parentbased_always_on' } };
    expect(tracingSettings('account', ENDPOINT)).toMatchObject(expected);
    expect(tracingSettings('account', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/v1/traces' })).toMatchObject(expected);
  });

  it('honours OTEL_SERVICE_NAME, the protocol, the sampler and the batch settings', () => {
    const { tracingSettings } = freshTracing();
    expect(
      tracingSettings('location', {
        ...ENDPOINT,
        OTEL_SERVICE_NAME: 'location-eu',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_BSP_MAX_QUEUE_SIZE: '4096',
      }),
    ).toEqual({
      serviceName: 'location-eu',
      protocol: 'http/json',
      sampler: { kind: 'parentbased_traceidratio', ratio: 0.25 },
      batch: { scheduledDelayMillis: 200, maxQueueSize: 4096, maxExportBatchSize: undefined, exportTimeoutMillis: undefined },
    });
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER'],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
    [{ OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER'],
    [{ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }, 'OTEL_TRACES_SAMPLER_ARG'],
    [{ OTEL_BSP_SCHEDULE_DELAY: 'soon' }, 'OTEL_BSP_SCHEDULE_DELAY'],
    [{ OTEL_SDK_DISABLED: 'yes' }, 'OTEL_SDK_DISABLED'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
  ])('refuses %j, naming %s', (env, name) => {
    const { tracingSettings } = freshTracing();
    expect(() => tracingSettings('account', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', ...env })).toThrow(name);
  });
});

describe('startTracing', () => {
  it('loads no SDK and gives no trace fields when tracing is off', async () => {
    const tracing = freshTracing();
    expect(tracing.startTracing('account', {})).toBe(false);
    expect(sdkLoads).toBe(0);
    expect(tracing.tracingEnabled()).toBe(false);
    expect(tracing.activeTraceFields()).toBeUndefined();
    await expect(tracing.flushTracing()).resolves.toBeUndefined();
  });

  it('starts the SDK once with the settings read, and hands out the active ids', () => {
    const tracing = freshTracing();
    expect(tracing.startTracing('account', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracing.startTracing('account', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ serviceName: 'account' });
    expect(tracing.tracingEnabled()).toBe(true);
    expect(tracing.activeTraceFields()).toEqual({ trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) });
  });
});
