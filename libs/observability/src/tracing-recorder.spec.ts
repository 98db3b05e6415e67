import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, TraceFlags, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { SamplerSetting } from './tracing-types';
import { IdSource, RecordedSpan, RecordingTracerProvider, ServerSpanRecord, SpanSampler, randomnessAtLeast, ratioThreshold, withSpan } from './tracing-recorder';

/** A processor that keeps what ends (the SDK's batch processor takes the same calls). */
class Kept implements SpanProcessor {
  readonly ended: ReadableSpan[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    this.ended.push(span);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const resource = resourceFromAttributes({ 'service.name': 'recorder-test' });

function tracerWith(setting: SamplerSetting, processor: SpanProcessor = new Kept()) {
  return new RecordingTracerProvider(resource, new SpanSampler(setting), processor).getTracer('test-scope', '1.0.0');
}

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => context.setGlobalContextManager(contextManager.enable()));
afterAll(() => {
  context.disable();
});

/** A trace id whose last 56 bits are `fraction` of 2^56 (the first 72 bits random-looking). */
function traceIdAt(fraction: number): string {
  const bits = BigInt(Math.floor(fraction * 2 ** 52)) << 4n;
  return `0123456789abcdef01${bits.toString(16).padStart(14, '0')}`;
}

describe('IdSource', () => {
  it('hands out distinct hex ids of 16 and 8 bytes, never all zeros, across refills of its pool', () => {
    const ids = new IdSource();
    const traces = new Set<string>();
    const spans = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      traces.add(ids.traceId());
      spans.add(ids.spanId());
    }
    expect(traces.size).toBe(1000);
    expect(spans.size).toBe(1000);
    for (const id of traces) expect(id).toMatch(/^[0-9a-f]{32}$/);
    for (const id of spans) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(traces.has('0'.repeat(32))).toBe(false);
  });
});

describe('SpanSampler', () => {
  const sampledParent = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED };
  const unsampledParent = { ...sampledParent, traceFlags: TraceFlags.NONE };

  it('compares the last 56 bits of the trace id with the threshold of the ratio, exactly', () => {
    expect(ratioThreshold(0.5)).toEqual([2 ** 27, 0]);
    expect(ratioThreshold(1)).toEqual([0, 0]);
    expect(ratioThreshold(0)).toEqual([2 ** 28, 0]);
    const [high, low] = ratioThreshold(0.5);
    expect(randomnessAtLeast('f'.repeat(18) + '7' + 'f'.repeat(13), high, low)).toBe(false);
    expect(randomnessAtLeast('0'.repeat(18) + '8' + '0'.repeat(13), high, low)).toBe(true);
    // the lowest bit counts: one below a threshold of 2^56 - 1 is out, the threshold itself in
    expect(randomnessAtLeast('0'.repeat(18) + 'f'.repeat(13) + 'e', 2 ** 28 - 1, 2 ** 28 - 1)).toBe(false);
    expect(randomnessAtLeast('0'.repeat(18) + 'f'.repeat(14), 2 ** 28 - 1, 2 ** 28 - 1)).toBe(true);
  });

  it('keeps a trace id at or above 1 - ratio, the same way every time', () => {
    const half = new SpanSampler({ kind: 'traceidratio', ratio: 0.5 });
    expect(half.sampled(undefined, traceIdAt(0.6), 'GET', false)).toBe(true);
    expect(half.sampled(undefined, traceIdAt(0.4), 'GET', false)).toBe(false);
    expect(half.sampled(undefined, traceIdAt(0.4), 'GET', false)).toBe(false);
    // not parent-based: the trace id decides, whatever the parent says
    expect(half.sampled(sampledParent, traceIdAt(0.4), 'GET', true)).toBe(false);
    expect(new SpanSampler({ kind: 'traceidratio', ratio: 0 }).sampled(undefined, 'f'.repeat(32), 'GET', false)).toBe(false);
    expect(new SpanSampler({ kind: 'traceidratio', ratio: 1 }).sampled(undefined, '0'.repeat(31) + '1', 'GET', false)).toBe(true);
  });

  it('samples about the ratio of random trace ids', () => {
    const tenth = new SpanSampler({ kind: 'parentbased_traceidratio', ratio: 0.1 });
    const ids = new IdSource();
    let kept = 0;
    for (let i = 0; i < 10_000; i++) if (tenth.sampled(undefined, ids.traceId(), 'GET', false)) kept++;
    // 1,000 expected, standard deviation 30: outside 800-1,200 with a chance far below one in a billion
    expect(kept).toBeGreaterThan(800);
    expect(kept).toBeLessThan(1200);
  });

  it('follows the parent when parent-based, and decides a root by its own rule', () => {
    for (const kind of ['parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const) {
      const sampler = new SpanSampler(kind === 'parentbased_traceidratio' ? { kind, ratio: 0.5 } : { kind });
      expect(sampler.sampled(sampledParent, traceIdAt(0.1), 'GET', true)).toBe(true);
      expect(sampler.sampled(unsampledParent, traceIdAt(0.9), 'GET', true)).toBe(false);
    }
    expect(new SpanSampler({ kind: 'parentbased_always_on' }).sampled(undefined, traceIdAt(0.1), 'GET', false)).toBe(true);
    expect(new SpanSampler({ kind: 'parentbased_always_off' }).sampled(undefined, traceIdAt(0.9), 'GET', false)).toBe(false);
    expect(new SpanSampler({ kind: 'always_on' }).sampled(unsampledParent, traceIdAt(0.1), 'GET', true)).toBe(true);
    expect(new SpanSampler({ kind: 'always_off' }).sampled(sampledParent, traceIdAt(0.9), 'GET', true)).toBe(false);
  });

  it('drops a connection span that has no span around it, and keeps one under a request', () => {
    const sampler = new SpanSampler({ kind: 'always_on' });
    expect(sampler.sampled(undefined, traceIdAt(0.5), 'tcp.connect', false)).toBe(false);
    expect(sampler.sampled(sampledParent, traceIdAt(0.5), 'tcp.connect', true)).toBe(true);
    expect(sampler.sampled(undefined, traceIdAt(0.5), 'GET', false)).toBe(true);
  });
});

describe('RecordingTracer', () => {
  it('records a sampled span and hands it to the processor once, when it ends', () => {
    const kept = new Kept();
    const tracer = tracerWith({ kind: 'always_on' }, kept);
    const span = tracer.startSpan('GET', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET', dropped: undefined } });
    expect(span).toBeInstanceOf(RecordedSpan);
    expect(span.isRecording()).toBe(true);
    span.setAttribute('http.response.status_code', 200);
    span.setAttributes({ list: ['a', 'b'], mixed: ['a', 1] as unknown as string[], nothing: null as unknown as string });
    span.updateName('GET /lbsapi/api/lbsQuery');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'failed' });
    span.end();
    span.end();
    span.setAttribute('late', 1);
    expect(kept.ended).toHaveLength(1);
    const ended = kept.ended[0]!;
    expect(ended).toMatchObject({
      name: 'GET /lbsapi/api/lbsQuery',
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200, list: ['a', 'b'] },
      status: { code: SpanStatusCode.ERROR, message: 'failed' },
      parentSpanContext: undefined,
      ended: true,
      resource,
      instrumentationScope: { name: 'test-scope', version: '1.0.0' },
      droppedAttributesCount: 0,
    });
    expect(Object.keys(ended.attributes)).toEqual(['http.request.method', 'http.response.status_code', 'list']);
    expect(ended.spanContext()).toMatchObject({ traceFlags: TraceFlags.SAMPLED });
    const ns = (t: [number, number]) => BigInt(t[0]) * 1_000_000_000n + BigInt(t[1]);
    expect(ns(ended.endTime)).toBeGreaterThanOrEqual(ns(ended.startTime));
    expect(ns(ended.duration)).toBe(ns(ended.endTime) - ns(ended.startTime));
    // an OK status is final
    const ok = tracer.startSpan('ok');
    ok.setStatus({ code: SpanStatusCode.OK });
    ok.setStatus({ code: SpanStatusCode.ERROR });
    ok.end();
    expect(kept.ended[1]!.status).toEqual({ code: SpanStatusCode.OK });
  });

  it('puts a child on its parent trace, active or given', () => {
    const kept = new Kept();
    const tracer = tracerWith({ kind: 'parentbased_always_on' }, kept);
    const parent = tracer.startSpan('parent');
    const given = tracer.startSpan('given', {}, withSpan(ROOT_CONTEXT, parent));
    const active = context.with(withSpan(ROOT_CONTEXT, parent), () => tracer.startSpan('active'));
    const root = context.with(withSpan(ROOT_CONTEXT, parent), () => tracer.startSpan('root', { root: true }));
    for (const child of [given, active]) {
      expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
      expect(child.spanContext().spanId).not.toBe(parent.spanContext().spanId);
      expect((child as RecordedSpan).parentSpanContext).toBe(parent.spanContext());
    }
    expect(root.spanContext().traceId).not.toBe(parent.spanContext().traceId);
    expect((root as RecordedSpan).parentSpanContext).toBeUndefined();
  });

  it('gives an unsampled span ids and no recording, and its children the same decision', () => {
    const kept = new Kept();
    const tracer = tracerWith({ kind: 'parentbased_always_off' }, kept);
    const span = tracer.startSpan('GET');
    expect(span).not.toBeInstanceOf(RecordedSpan);
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext()).toMatchObject({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/), traceFlags: TraceFlags.NONE });
    const child = tracer.startSpan('redis GET', {}, withSpan(ROOT_CONTEXT, span));
    expect(child.isRecording()).toBe(false);
    expect(child.spanContext().traceId).toBe(span.spanContext().traceId);
    span.end();
    child.end();
    expect(kept.ended).toEqual([]);
  });

  it('runs startActiveSpan with the span active, in each of its forms', () => {
    const tracer = tracerWith({ kind: 'always_on' });
    const seen: Array<Span | undefined> = [];
    const spans: Span[] = [];
    const fn = (span: Span) => {
      seen.push(trace.getSpan(context.active()));
      spans.push(span);
      span.end();
      return spans.length;
    };
    expect(tracer.startActiveSpan('a', fn)).toBe(1);
    expect(tracer.startActiveSpan('b', { kind: SpanKind.CLIENT }, fn)).toBe(2);
    expect(tracer.startActiveSpan('c', {}, ROOT_CONTEXT, fn)).toBe(3);
    expect(seen).toEqual(spans);
    expect((spans[1] as RecordedSpan).kind).toBe(SpanKind.CLIENT);
  });

  it('keeps 128 attributes, 128 events and 128 links, and counts what it drops', () => {
    const kept = new Kept();
    const span = tracerWith({ kind: 'always_on' }, kept).startSpan('many');
    for (let i = 0; i < 130; i++) {
      span.setAttribute(`a${i}`, i);
      span.addEvent(`e${i}`);
      span.addLink({ context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 0 } });
    }
    span.setAttribute('a0', 'replaced');
    span.end();
    const ended = kept.ended[0]!;
    expect(Object.keys(ended.attributes)).toHaveLength(128);
    expect(ended.attributes.a0).toBe('replaced');
    expect([ended.droppedAttributesCount, ended.events.length, ended.droppedEventsCount, ended.links.length, ended.droppedLinksCount]).toEqual([2, 128, 2, 128, 2]);
  });

  it('records an exception as the standard event, and an event at the time given', () => {
    const kept = new Kept();
    const span = tracerWith({ kind: 'always_on' }, kept).startSpan('failing');
    const error = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    span.recordException(error);
    span.addEvent('at', { n: 1 }, [1_700_000_000, 5]);
    span.addEvent('time only', 1_700_000_000_000);
    span.end();
    const [exception, at, timeOnly] = kept.ended[0]!.events;
    expect(exception).toMatchObject({
      name: 'exception',
      attributes: { 'exception.type': 'ECONNREFUSED', 'exception.message': 'connection refused', 'exception.stacktrace': error.stack },
    });
    expect(at).toEqual({ name: 'at', attributes: { n: 1 }, time: [1_700_000_000, 5] });
    expect(timeOnly).toEqual({ name: 'time only', attributes: undefined, time: [1_700_000_000, 0] });
  });
});

describe('ServerSpanRecord', () => {
  const remote = { traceId: 'e'.repeat(32), spanId: 'f'.repeat(16), traceFlags: TraceFlags.SAMPLED, isRemote: true };

  /** What the request observer recorded before records: a span with the request's attributes, named and ended at the answer. */
  function recordedAsBefore(record: ServerSpanRecord, status: number, route: string | undefined): ReadableSpan {
    const kept = new Kept();
    const before = tracerWith({ kind: 'always_on' }, kept);
    const attributes = { 'http.request.method': 'GET', 'url.path': '/lbsapi/api/lbsQuery', 'client.address': '10.1.2.3' };
    const span = before.startWith('GET', SpanKind.SERVER, attributes, record.parentSpanContext, record.spanContext().traceId, true, { startTime: record.startTime });
    if (route !== undefined) {
      span.updateName(`GET ${route}`);
      span.setAttribute('http.route', route);
    }
    if (status > 0) span.setAttribute('http.response.status_code', status);
    if (status >= 500 || status === 0) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(record.endTime);
    return kept.ended[0]!;
  }

  /** The fields a processor reads, ids aside. */
  const readable = (span: ReadableSpan) => ({
    name: span.name,
    kind: span.kind,
    attributes: { ...span.attributes },
    status: { ...span.status },
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    parentSpanContext: span.parentSpanContext,
    events: span.events,
    links: span.links,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
  });

  it('reads, once ended, as the recorded span the request observer made before: name, attributes, times, status', () => {
    const kept = new Kept();
    const tracer = tracerWith({ kind: 'always_on' }, kept);
    const cases: [status: number, route: string | undefined, parent: typeof remote | undefined][] = [
      [200, '/lbsapi/api/lbsQuery', undefined],
      [200, '/lbsapi/api/lbsQuery', remote],
      [404, undefined, undefined],
      [503, '/lbsapi/api/lbsQuery', undefined],
      [0, '/lbsapi/api/lbsQuery', undefined],
    ];
    for (const [status, route, parent] of cases) {
      const record = tracer.startServer('GET', '/lbsapi/api/lbsQuery', '10.1.2.3', parent, parent?.traceId ?? 'a'.repeat(32));
      expect(record.isRecording()).toBe(true);
      expect(record.spanContext()).toMatchObject({ traceFlags: TraceFlags.SAMPLED, traceId: parent?.traceId ?? 'a'.repeat(32) });
      record.finish(status, route);
      record.finish(500, '/other');
      expect(record.isRecording()).toBe(false);
      expect(kept.ended.at(-1)).toBe(record);
      expect(readable(record)).toEqual(readable(recordedAsBefore(record, status, route)));
    }
    expect(kept.ended).toHaveLength(cases.length);
    // A processor that masks attributes in place (the JSON path) sees its change kept.
    const record = kept.ended[0]!;
    (record.attributes as Record<string, unknown>)['url.path'] = '[masked]';
    expect(record.attributes['url.path']).toBe('[masked]');
  });

  it("is the parent of the request's child spans, and a recorded span once something of its own is set on it", () => {
    const kept = new Kept();
    const tracer = tracerWith({ kind: 'parentbased_always_on' }, kept);
    const record = tracer.startServer('POST', '/lbsapi/api/lbsQuery', '10.1.2.3', undefined, 'b'.repeat(32));
    const child = tracer.startSpan('get', { kind: SpanKind.CLIENT }, withSpan(ROOT_CONTEXT, record));
    child.end();
    expect(kept.ended[0]!.parentSpanContext?.spanId).toBe(record.spanContext().spanId);
    expect(kept.ended[0]!.spanContext().traceId).toBe('b'.repeat(32));

    record.setAttribute('app.cache', 'hit');
    record.addEvent('cache read', { key: 'lbs:1' });
    record.finish(201, '/lbsapi/api/lbsQuery');
    record.finish(500, undefined);
    expect(kept.ended).toHaveLength(2);
    const ended = kept.ended[1]!;
    expect(ended).toBeInstanceOf(RecordedSpan);
    expect(ended.spanContext()).toBe(record.spanContext());
    expect(ended.startTime).toEqual(record.startTime);
    expect(ended).toMatchObject({ name: 'POST /lbsapi/api/lbsQuery', kind: SpanKind.SERVER, status: { code: SpanStatusCode.UNSET } });
    expect(ended.attributes).toEqual({
      'http.request.method': 'POST',
      'url.path': '/lbsapi/api/lbsQuery',
      'client.address': '10.1.2.3',
      'app.cache': 'hit',
      'http.route': '/lbsapi/api/lbsQuery',
      'http.response.status_code': 201,
    });
    expect(ended.events.map((e) => e.name)).toEqual(['cache read']);

    // The API's end ends it as it stands; the answer that comes later changes nothing.
    const ownEnd = tracer.startServer('GET', '/x', '10.1.2.3', undefined, 'c'.repeat(32));
    ownEnd.updateName('custom');
    ownEnd.end();
    ownEnd.finish(200, '/x');
    ownEnd.setAttribute('late', 1);
    expect(kept.ended).toHaveLength(3);
    expect(kept.ended[2]).toMatchObject({ name: 'custom', attributes: { 'http.request.method': 'GET', 'url.path': '/x', 'client.address': '10.1.2.3' } });
    expect(Object.keys(kept.ended[2]!.attributes)).toHaveLength(3);
  });
});

describe('withSpan', () => {
  it('is a context the API reads its span from, and that takes further values', () => {
    const span = trace.wrapSpanContext({ traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: 0 });
    const ctx = withSpan(ROOT_CONTEXT, span);
    expect(trace.getSpan(ctx)).toBe(span);
    const key = Symbol('other');
    const more = ctx.setValue(key, 42);
    expect([more.getValue(key), trace.getSpan(more)]).toEqual([42, span]);
    expect(trace.getSpan(more.deleteValue(Symbol.for('OpenTelemetry Context Key SPAN')))).toBeUndefined();
    expect(ctx.getValue(key)).toBeUndefined();
  });
});
