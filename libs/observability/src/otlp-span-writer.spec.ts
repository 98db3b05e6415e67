import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, createTraceState, trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import { ExportThread } from './otlp-export-thread';
import { DEFAULT_BATCH_SIZE, DEFAULT_QUEUE_SIZE, type EncodedSpans, OtlpSpanWriter, ProtoBytes, RecurringFields, type SpanWriterSettings, WRITE_BURST, writeAttributes } from './otlp-span-writer';
import { redactText } from './redact';
import { RecordingTracerProvider, SpanSampler } from './tracing-recorder';

const resource = resourceFromAttributes({ 'service.name': 'writer-test', 'host.name': 'node-1', 'process.pid': 4242, 'process.command_args': ['node', 'main.js'] });
const same = (text: string) => text;

/** Records what it is asked to send; answers success unless told otherwise. */
class Sent {
  readonly batches: EncodedSpans[] = [];
  shutDown = false;
  export(batch: EncodedSpans, done: (result: { code: ExportResultCode }) => void): void {
    // A copy, as a sender that keeps the bytes makes one: the writer writes its next batch over them.
    this.batches.push({ bytes: Buffer.from(batch.bytes), count: batch.count });
    done({ code: ExportResultCode.SUCCESS });
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    this.shutDown = true;
    return Promise.resolve();
  }
}

/** Ends spans of two scopes, with every kind of field, into `processor`; returns them. */
function endVariedSpans(processor: SpanProcessor): ReadableSpan[] {
  const ended: ReadableSpan[] = [];
  const keep: SpanProcessor = {
    onStart: () => undefined,
    onEnd: (span) => {
      ended.push(span);
      processor.onEnd(span);
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const provider = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_on' }), keep);
  const server = provider.getTracer('@geoaccount/observability');
  const redis = provider.getTracer('@opentelemetry/instrumentation-ioredis', '0.72.0', { schemaUrl: 'https://opentelemetry.io/schemas/1.27.0' });
  const remote = trace.wrapSpanContext({
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
    traceState: createTraceState('vendor=abc,other=1'),
  });
  const request = server.startSpan(
    'GET',
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET', 'url.path': '/lbsapi/api/lbsQuery', 'client.address': '127.0.0.1' } },
    trace.setSpan(ROOT_CONTEXT, remote),
  );
  request.setAttributes({
    'http.response.status_code': 200,
    negative: -42,
    big: 2 ** 40,
    ratio: 0.25,
    ok: true,
    names: ['北京', 'Shanghai'],
    counts: [1, 2, 3],
    long: 'x'.repeat(200),
    longer: 'y'.repeat(20_000),
    place: '北京市东城区',
  });
  request.addEvent('cache miss', { key: 'lbs:1' }, [1_764_000_000, 123_456_789]);
  request.recordException(Object.assign(new Error('upstream failed'), { code: 'ECONNRESET' }));
  request.addLink({ context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 0, isRemote: true }, attributes: { why: 'retry' } });
  request.updateName('GET /lbsapi/api/lbsQuery');
  const get = redis.startSpan('get', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'redis', 'db.query.text': 'get lbs:v2:lbsQuery:abc' } }, trace.setSpan(ROOT_CONTEXT, request));
  get.end();
  request.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream failed' });
  request.end();
  const internal = server.startSpan('startup', { startTime: [1_764_000_000, 999_999_999] });
  internal.end([1_764_000_001, 1]);
  return ended;
}

describe('OtlpSpanWriter', () => {
  it("writes the bytes of OpenTelemetry's own serialiser for the same spans", async () => {
    const sent = new Sent();
    const writer = new OtlpSpanWriter(resource, sent, {}, same);
    const spans = endVariedSpans(writer);
    await writer.forceFlush();
    expect(sent.batches).toHaveLength(1);
    expect(sent.batches[0]!.count).toBe(3);
    const expected = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    expect(expected.length).toBeGreaterThan(20_000);
    expect(Buffer.from(sent.batches[0]!.bytes).equals(expected)).toBe(true);
  });

  it('writes the same bytes again from the values it keeps, and a batch of one scope after one of two', async () => {
    const sent = new Sent();
    const writer = new OtlpSpanWriter(resource, sent, {}, same);
    const first = endVariedSpans(writer);
    await writer.forceFlush();
    const second = endVariedSpans(writer);
    await writer.forceFlush();
    // Only the first scope's tracer this time: the second scope's kept buffer is empty.
    const provider = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_on' }), writer);
    const only = provider.getTracer('@geoaccount/observability').startSpan('GET /lbsapi/api/lbsQuery', { attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200 } });
    only.end();
    await writer.forceFlush();
    const third: ReadableSpan[] = [only as unknown as ReadableSpan];
    expect(sent.batches.map((b) => b.count)).toEqual([3, 3, 1]);
    for (const [i, spans] of [first, second, third].entries()) {
      const expected = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
      expect(Buffer.from(sent.batches[i]!.bytes).equals(expected)).toBe(true);
    }
  });

  it("writes a sampled request's server span record in the bytes of OpenTelemetry's serialiser", async () => {
    const sent = new Sent();
    const writer = new OtlpSpanWriter(resource, sent, {}, same);
    const tracer = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_on' }), writer).getTracer('@geoaccount/observability');
    const remote = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: createTraceState('vendor=abc') };
    const records = [
      tracer.startServer('GET', '/lbsapi/api/lbsQuery', '127.0.0.1', undefined, 'a'.repeat(32)),
      tracer.startServer('POST', '/lbsapi/api/lbsQuery', '::1', remote, remote.traceId),
      tracer.startServer('GET', '/nowhere', '127.0.0.1', undefined, 'b'.repeat(32)),
      tracer.startServer('GET', '/lbsapi/api/lbsQuery', '127.0.0.1', undefined, 'c'.repeat(32)),
    ];
    records[0]!.finish(200, '/lbsapi/api/lbsQuery');
    records[1]!.finish(503, '/lbsapi/api/lbsQuery');
    records[2]!.finish(404, undefined);
    records[3]!.finish(0, '/lbsapi/api/lbsQuery');
    await writer.forceFlush();
    expect(sent.batches.map((b) => b.count)).toEqual([4]);
    const expected = Buffer.from(ProtobufTraceSerializer.serializeRequest(records)!);
    expect(Buffer.from(sent.batches[0]!.bytes).equals(expected)).toBe(true);
  });

  it(`writes ended spans ${WRITE_BURST} at a time, and those left when a batch is sent`, async () => {
    const sent = new Sent();
    const masked: string[] = [];
    const mask = (text: string) => {
      masked.push(text);
      return text;
    };
    const writer = new OtlpSpanWriter(resource, sent, { scheduledDelayMillis: 60_000 }, mask);
    const tracer = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_on' }), writer).getTracer('t');
    masked.length = 0; // the resource's values, masked once when the writer is made
    // Each span has a value of its own: the writer masks it when it writes the span.
    const end = (i: number) => tracer.startSpan('s', { attributes: { n: `value-${i}` } }).end();
    for (let i = 0; i < WRITE_BURST - 1; i++) end(i);
    expect(masked).toHaveLength(0);
    end(WRITE_BURST - 1);
    expect(masked).toEqual(Array.from({ length: WRITE_BURST }, (_, i) => `value-${i}`));
    for (let i = WRITE_BURST; i < WRITE_BURST + 10; i++) end(i);
    expect(masked).toHaveLength(WRITE_BURST);
    await writer.forceFlush();
    expect(masked).toHaveLength(WRITE_BURST + 10);
    expect(sent.batches.map((b) => b.count)).toEqual([WRITE_BURST + 10]);
  });

  it('keeps at most the bounded number of values of a key, and writes the others as they come', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `/users/${i}`);
    const bytesOf = (recurring: RecurringFields | undefined, paths: string[]) => {
      const w = new ProtoBytes(64);
      for (const path of paths) {
        const kv = new ProtoBytes(64);
        if (recurring) recurring.writeAttributes(kv, { 'url.path': path, 'http.request.method': 'GET' });
        else writeAttributes(kv, 9, { 'url.path': path, 'http.request.method': 'GET' }, same);
        w.append(kv.bytes());
      }
      return Buffer.from(w.bytes());
    };
    const recurring = new RecurringFields(same, 4);
    const paths = [...values(10), ...values(10)];
    expect(bytesOf(recurring, paths).equals(bytesOf(undefined, paths))).toBe(true);
    const kept = (recurring as unknown as { keys: Map<string, Map<unknown, unknown> | null> }).keys;
    // `url.path` had more than 4 values: no longer kept; the method's one value still is.
    expect(kept.get('url.path')).toBeNull();
    expect(kept.get('http.request.method')?.size).toBe(1);
  });

  it('masks a kept value when it is first written: the credential is never in the bytes, first time or later', async () => {
    const sent = new Sent();
    const writer = new OtlpSpanWriter(resource, sent, {}, redactText);
    const tracer = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_on' }), writer).getTracer('t');
    for (let i = 0; i < 3; i++) tracer.startSpan('GET', { attributes: { 'url.full': 'http://amap/geo?key=amap-secret-key' } }).end();
    await writer.forceFlush();
    const bytes = Buffer.from(sent.batches[0]!.bytes);
    expect(bytes.includes('amap-secret-key')).toBe(false);
    expect(bytes.toString('latin1').split('[REDACTED]')).toHaveLength(4);
  });

  it('masks credentials in string attributes before they are written', async () => {
    const sent = new Sent();
    const writer = new OtlpSpanWriter(resource, sent, {}, redactText);
    const provider = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_on' }), writer);
    const span = provider.getTracer('t').startSpan('GET', { attributes: { 'url.full': 'http://amap/geo?key=amap-secret-key&sig=0123abcd&location=1,2' } });
    span.end();
    await writer.forceFlush();
    const bytes = Buffer.from(sent.batches[0]!.bytes);
    expect(bytes.includes('amap-secret-key')).toBe(false);
    expect(bytes.includes('0123abcd')).toBe(false);
    expect(bytes.includes('[REDACTED]')).toBe(true);
  });

  it('sends a batch when it is full, or after the delay, and skips unsampled spans', async () => {
    const sent = new Sent();
    const writer = new OtlpSpanWriter(resource, sent, { maxExportBatchSize: 2, scheduledDelayMillis: 20 }, same);
    const tracer = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_on' }), writer).getTracer('t');
    const unsampled = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_off' }), writer).getTracer('t');
    tracer.startSpan('a').end();
    unsampled.startSpan('not sampled').end();
    expect(sent.batches).toHaveLength(0);
    tracer.startSpan('b').end();
    expect(sent.batches.map((b) => b.count)).toEqual([2]);
    tracer.startSpan('c').end();
    await new Promise((r) => setTimeout(r, 100));
    expect(sent.batches.map((b) => b.count)).toEqual([2, 1]);
    expect(Buffer.concat(sent.batches.map((b) => Buffer.from(b.bytes))).includes('not sampled')).toBe(false);
  });

  it('sends 2048 spans a batch by default, and a quarter of the queue when only the queue is set', async () => {
    const counts = (settings: SpanWriterSettings, spans: number) => {
      const sent = new Sent();
      const writer = new OtlpSpanWriter(resource, sent, { scheduledDelayMillis: 60_000, ...settings }, same);
      const tracer = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_on' }), writer).getTracer('t');
      for (let i = 0; i < spans; i++) tracer.startSpan('s').end();
      return sent.batches.map((b) => b.count);
    };
    expect([DEFAULT_BATCH_SIZE, DEFAULT_QUEUE_SIZE]).toEqual([2048, 8192]);
    expect(counts({}, 2047)).toEqual([]);
    expect(counts({}, 4096)).toEqual([2048, 2048]);
    expect(counts({ maxQueueSize: 100 }, 50)).toEqual([25, 25]);
    expect(counts({ maxQueueSize: 100, maxExportBatchSize: 512 }, 100)).toEqual([100]);
    expect(counts({ maxExportBatchSize: 512 }, 1024)).toEqual([512, 512]);
  });

  it('drops and counts spans past the queue size while a batch is being sent, and flushes on shutdown', async () => {
    let release: (() => void) | undefined;
    const batches: EncodedSpans[] = [];
    let shutDown = false;
    const slow = {
      export(batch: EncodedSpans, done: (r: { code: ExportResultCode }) => void) {
        batches.push(batch);
        release = () => done({ code: ExportResultCode.SUCCESS });
      },
      forceFlush: () => Promise.resolve(),
      shutdown: () => {
        shutDown = true;
        return Promise.resolve();
      },
    };
    const writer = new OtlpSpanWriter(resource, slow, { maxQueueSize: 3, maxExportBatchSize: 2, scheduledDelayMillis: 60_000 }, same);
    const tracer = new RecordingTracerProvider(resource, new SpanSampler({ kind: 'always_on' }), writer).getTracer('t');
    for (const name of ['a', 'b', 'c', 'd', 'e']) tracer.startSpan(name).end();
    // a and b are being sent, c waits, d and e found the queue full
    expect([batches.map((b) => b.count), writer.dropped]).toEqual([[2], 2]);
    release!();
    const stopping = writer.shutdown();
    await new Promise((r) => setImmediate(r));
    release!();
    await stopping;
    expect([batches.map((b) => b.count), shutDown]).toEqual([[2, 1], true]);
    tracer.startSpan('after').end();
    expect(batches).toHaveLength(2);
  });

  it('goes out through the OTLP/HTTP transport on the export thread, to the configured endpoint, with its headers', async () => {
    const received: { headers: IncomingHttpHeaders; body: Buffer; url?: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks), url: req.url });
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const saved = { ...process.env };
    try {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-api-key=collector-key';
      const writer = new OtlpSpanWriter(resource, new ExportThread(), {}, same);
      const spans = endVariedSpans(writer);
      await writer.shutdown();
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ url: '/v1/traces', headers: { 'content-type': 'application/x-protobuf', 'x-api-key': 'collector-key' } });
      expect(received[0]!.body.equals(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!))).toBe(true);
    } finally {
      process.env = saved;
      await new Promise((r) => server.close(r));
    }
  });
});

describe('ProtoBytes', () => {
  it('writes varints, 64-bit times and long length prefixes as protobuf does', () => {
    const w = new ProtoBytes(4);
    w.varint(300);
    w.varint(-1);
    expect(w.bytes().toString('hex')).toBe('ac02' + 'ff'.repeat(9) + '01');
    w.reset();
    w.hrTime([1_764_000_000, 123_456_789]);
    expect(w.bytes().readBigUInt64LE(0)).toBe(1_764_000_000_123_456_789n);
    w.reset();
    w.hrTime([4_102_444_800, 999_999_999]); // 2100-01-01, past 2^31 seconds
    expect(w.bytes().readBigUInt64LE(0)).toBe(4_102_444_800_999_999_999n);
    w.reset();
    const start = w.begin();
    w.append(Buffer.alloc(20_000, 7));
    w.end(start);
    expect(w.pos).toBe(3 + 20_000);
    expect(w.bytes().subarray(0, 3).toString('hex')).toBe('a09c01');
    expect(w.bytes().subarray(3).every((b) => b === 7)).toBe(true);
  });

  it('writes ids as bytes, and zeros (never earlier bytes) where the text is not hex', () => {
    const w = new ProtoBytes(64);
    w.append(Buffer.alloc(64, 0xee));
    w.reset();
    w.hex('0AF7651916cd43dd');
    w.hex('abzz');
    expect(w.bytes().toString('hex')).toBe('08' + '0af7651916cd43dd' + '02' + 'ab00');
  });

  it('writes the same bytes with two bytes reserved for a length as with one, whatever the length', () => {
    for (const length of [0, 5, 127, 128, 300, 16_383, 16_384, 20_000]) {
      const body = Buffer.alloc(length, 9);
      const framed = (sized: boolean) => {
        const w = new ProtoBytes(4);
        w.varint(1);
        const at = sized ? w.beginSized() : w.begin();
        w.append(body);
        if (sized) w.endSized(at);
        else w.end(at);
        w.varint(2);
        return w.bytes().toString('hex');
      };
      expect(framed(true)).toBe(framed(false));
    }
  });
});
