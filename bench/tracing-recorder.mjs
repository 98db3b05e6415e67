#!/usr/bin/env node
// `node bench/tracing-recorder.mjs`: a request's tracing work with the OpenTelemetry SDK's tracer
// provider and with the services' span recorder (libs/observability/src/tracing-recorder.ts), in
// one process, on the compiled library (`pnpm build` first). Each pair is timed alternately
// (5 rounds of ~300 ms each side, the median kept, the better of two), so a drift of a shared
// machine falls on both. Prints µs per request and the ratio; the figures go into
// docs/performance.md (Tracing).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './lib/common.mjs';
import { time } from './lib/micro.mjs';

const require = createRequire(join(root, 'libs/observability/package.json'));
const api = require('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
const sdk = require('@opentelemetry/sdk-trace');
const { resourceFromAttributes } = require('@opentelemetry/resources');
const { ProtobufTraceSerializer } = require('@opentelemetry/otlp-transformer');
const recorder = require(join(root, 'libs/observability/dist/tracing-recorder.js'));
const { OtlpSpanWriter } = require(join(root, 'libs/observability/dist/otlp-span-writer.js'));
const { redactText } = require(join(root, 'libs/observability/dist/redact.js'));

api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const { ROOT_CONTEXT, SpanKind, TraceFlags, context, trace } = api;


const rows = [];
function pair(name, withSdk, withRecorder, note, batch = 1000) {
  time(withSdk, Math.min(batch, 100));
  time(withRecorder, Math.min(batch, 100));
  const a = [];
  const b = [];
  for (let i = 0; i < 2; i++) {
    a.push(time(withSdk, batch));
    b.push(time(withRecorder, batch));
  }
  rows.push({ name, sdk: Math.min(...a), ours: Math.min(...b), note });
}

/** Spans end here: kept for the serialisation row, then dropped. */
const ended = [];
const processor = {
  onStart() {},
  onEnd(span) {
    if (ended.length < 512) ended.push(span);
  },
  forceFlush: async () => {},
  shutdown: async () => {},
};
const resource = resourceFromAttributes({ 'service.name': 'location' });

/** The SDK's way, as the services ran it before: its provider, sampler and ids, the decision asked first. */
function sdkSide(root) {
  const sampler = new sdk.ParentBasedSampler({ root });
  const ids = new sdk.RandomIdGenerator();
  const provider = new sdk.TracerProvider({ resource, sampler, spanProcessors: [processor] });
  const tracer = provider.getTracer('@geoaccount/observability');
  return () => {
    const traceId = ids.generateTraceId();
    const decision = sampler.shouldSample(ROOT_CONTEXT, traceId, 'GET', SpanKind.SERVER, {}, []);
    let span;
    if (decision.decision === sdk.SamplingDecision.NOT_RECORD) {
      span = trace.wrapSpanContext({ traceId, spanId: ids.generateSpanId(), traceFlags: TraceFlags.NONE });
    } else {
      span = tracer.startSpan('GET', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET', 'url.path': '/lbsapi/api/lbsQuery', 'client.address': '127.0.0.1' } }, ROOT_CONTEXT);
    }
    context.with(trace.setSpan(ROOT_CONTEXT, span), () => trace.getSpan(context.active()));
    if (span.isRecording()) {
      span.updateName('GET /lbsapi/api/lbsQuery');
      span.setAttribute('http.route', '/lbsapi/api/lbsQuery');
      span.setAttribute('http.response.status_code', 200);
      span.end();
    }
  };
}

/** The recorder's way, as `startServerSpan` runs it now. */
function recorderSide(setting) {
  const sampler = new recorder.SpanSampler(setting);
  const ids = new recorder.IdSource();
  const provider = new recorder.RecordingTracerProvider(resource, sampler, processor, ids);
  const tracer = provider.getTracer('@geoaccount/observability');
  return () => {
    const traceId = ids.traceId();
    const sampled = sampler.sampled(undefined, traceId, 'GET', false);
    const span = sampled
      ? tracer.startServer('GET', '/lbsapi/api/lbsQuery', '127.0.0.1', undefined, traceId)
      : tracer.startWith('GET', SpanKind.SERVER, undefined, undefined, traceId, false);
    context.with(recorder.withSpan(ROOT_CONTEXT, span), () => trace.getSpan(context.active()));
    if (sampled) span.finish(200, '/lbsapi/api/lbsQuery');
  };
}

pair('server span, not sampled', sdkSide(new sdk.AlwaysOffSampler()), recorderSide({ kind: 'parentbased_always_off' }), 'ids, decision, context');
pair('server span, 10% sampled', sdkSide(new sdk.TraceIdRatioBasedSampler(0.1)), recorderSide({ kind: 'parentbased_traceidratio', ratio: 0.1 }), 'the average request');
pair('server span, every request', sdkSide(new sdk.AlwaysOnSampler()), recorderSide({ kind: 'parentbased_always_on' }), 'span, 5 attributes, end');

// The same server spans as OTLP protobuf: the SDK batch processor's export serialises 512 kept
// spans at once (masking their strings first, as the services' exporter did); the span writer
// writes the spans 64 at a time as they end (masking as it writes) and the request from the bytes.
{
  ended.length = 0;
  const run = sdkSide(new sdk.AlwaysOnSampler());
  while (ended.length < 512) run();
  const sdkSpans = [...ended];
  ended.length = 0;
  const ours = recorderSide({ kind: 'always_on' });
  while (ended.length < 512) ours();
  const recorded = [...ended];
  const writer = new OtlpSpanWriter(resource, { export: (_b, done) => done({ code: 0 }), forceFlush: async () => {}, shutdown: async () => {} }, { maxExportBatchSize: 512 }, redactText);
  pair(
    'OTLP protobuf per span (512 a batch)',
    () => {
      for (const span of sdkSpans) for (const key in span.attributes) if (typeof span.attributes[key] === 'string') span.attributes[key] = redactText(span.attributes[key]);
      ProtobufTraceSerializer.serializeRequest(sdkSpans);
    },
    () => {
      for (const span of recorded) writer.onEnd(span);
    },
    'SDK: masked and serialised at export; writer: 64 at a time',
    10,
  );
  const last = rows.at(-1);
  last.sdk /= 512;
  last.ours /= 512;
}

const pad = (t, n) => String(t).padEnd(n);
console.log(`${pad('per request', 38)}| ${pad('SDK µs', 7)}| ${pad('recorder µs', 12)}| ratio | note`);
console.log(`${'-'.repeat(38)}|${'-'.repeat(8)}|${'-'.repeat(13)}|-------|-----`);
for (const r of rows) {
  console.log(`${pad(r.name, 38)}| ${pad(r.sdk.toFixed(2), 7)}| ${pad(r.ours.toFixed(2), 12)}| ${(r.sdk / r.ours).toFixed(2).padStart(5)} | ${r.note}`);
}
console.log(`\nNode ${process.version}; median of 5 rounds of ~300 ms, the better of two, each side alternately.`);
