/**
 * The OpenTelemetry SDK side of `tracing.ts`, required only when tracing is on: the tracer
 * provider, W3C trace context and baggage propagation, the OTLP/HTTP exporter behind a batch
 * processor, and the instrumentations of what the services use.
 */
import type { IncomingMessage } from 'node:http';
import {
  ROOT_CONTEXT,
  type Attributes,
  type Context,
  type Link,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  isSpanContextValid,
  propagation,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, type ExportResult, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { NetInstrumentation } from '@opentelemetry/instrumentation-net';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { detectResources, envDetector, hostDetector, processDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  type IdGenerator,
  ParentBasedSampler,
  RandomIdGenerator,
  type ReadableSpan,
  type Sampler,
  type SamplingResult,
  SamplingDecision,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { SENSITIVE_FIELDS, redactText } from './redact';
import type { SamplerSetting, ServerSpan, TraceFields, TracingHandle, TracingSettings } from './tracing-types';

/** Probes and scrapes: no trace. */
const UNTRACED_PATHS = ['/health/', '/metrics'];

/** Connection spans of `instrumentation-net` that have no request around them (pool warm-up, reconnects). */
const CONNECT_SPANS = new Set(['tcp.connect', 'tls.connect', 'ipc.connect', 'connect']);

export function startTracingSdk(settings: TracingSettings): TracingHandle {
  const contextManager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );

  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: settings.serviceName,
    [ATTR_SERVICE_VERSION]: process.env.npm_package_version ?? '0.1.0',
  }).merge(detectResources({ detectors: [processDetector, hostDetector, envDetector] }));

  // Endpoint, headers, timeout and compression come from the OTEL_EXPORTER_OTLP_* variables.
  const otlp = settings.protocol === 'http/json' ? new OTLPJsonTraceExporter() : new OTLPProtoTraceExporter();
  const sampler = new NoBareConnectSampler(samplerOf(settings.sampler));
  const idGenerator = new PresetIdGenerator();
  const provider = new TracerProvider({
    resource,
    sampler,
    idGenerator,
    spanProcessors: [new BatchSpanProcessor({ exporter: new RedactingExporter(otlp), ...definedOnly(settings.batch) })],
  });
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer('@geoaccount/observability');

  const sensitive = SENSITIVE_FIELDS.flatMap((name) => [name, `${name}_encrypt`]);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Outgoing calls only (the upstream geocoders): the server span is the request
      // observer's (`startServerSpan`), which knows the route template anyway (for the
      // metrics) and records a few attributes instead of the instrumentation's dozen; no span
      // per Express middleware either.
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true, redactedQueryParams: sensitive }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      // Connection set-up of clients without an instrumentation of their own (the directory's
      // LDAP client): connect and TLS handshake spans under the request.
      new NetInstrumentation(),
    ],
  });

  return {
    activeIds(): TraceFields | undefined {
      const span = trace.getSpan(context.active());
      if (span === undefined) return undefined;
      const ids = span.spanContext();
      return { trace_id: ids.traceId, span_id: ids.spanId };
    },
    startServerSpan(req: IncomingMessage): ServerSpan | undefined {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      if (untraced(path)) return undefined;
      const method = req.method ?? 'GET';
      // The caller's trace (W3C traceparent, baggage), if any: most requests carry neither.
      const headers = req.headers;
      const parent = headers.traceparent === undefined && headers.baggage === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, headers);
      const parentIds = trace.getSpanContext(parent);
      const traceId = parentIds !== undefined && isSpanContextValid(parentIds) ? parentIds.traceId : idGenerator.generateTraceId();
      // Fast path "unsampled request": the sampler the SDK would ask, asked first. A request it
      // does not sample gets the trace's ids (propagated downstream, on its log lines) and no
      // SDK span: none of the SDK's per-span work, no close listener (docs/performance.md, Tracing).
      if (sampler.shouldSample(parent, traceId, method, SpanKind.SERVER, NO_ATTRIBUTES, NO_LINKS).decision === SamplingDecision.NOT_RECORD) {
        const unsampled = { traceId, spanId: idGenerator.generateSpanId(), traceFlags: TraceFlags.NONE, traceState: parentIds?.traceState };
        const active = trace.setSpan(parent, trace.wrapSpanContext(unsampled));
        return { recording: false, run: (fn) => context.with(active, fn), end: endNothing };
      }
      // Sampled: the SDK's span, on the trace id the decision was made for.
      idGenerator.preset(traceId);
      const span = tracer.startSpan(
        method,
        {
          kind: SpanKind.SERVER,
          // The query string is left out: it carries signatures.
          attributes: { 'http.request.method': method, 'url.path': path, 'client.address': req.socket.remoteAddress ?? '' },
        },
        parent,
      );
      const active = trace.setSpan(parent, span);
      let ended = false;
      return {
        recording: true,
        run: (fn) => context.with(active, fn),
        end(status: number, route: string | undefined): void {
          if (ended) return;
          ended = true;
          if (route !== undefined) {
            span.updateName(`${method} ${route}`);
            span.setAttribute('http.route', route);
          }
          if (status > 0) span.setAttribute('http.response.status_code', status);
          if (status >= 500 || status === 0) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    async shutdown(): Promise<void> {
      await provider.shutdown();
    },
  };
}

const NO_ATTRIBUTES: Attributes = Object.freeze({});
const NO_LINKS: Link[] = [];
const endNothing = (): void => undefined;

/**
 * The SDK's random ids, except that the next trace id can be set: the server span's sampling
 * decision is made before the SDK is asked for the span (see `startServerSpan`), on a trace id
 * the SDK must then use, so that a ratio sampler decides the same way twice.
 */
class PresetIdGenerator implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private next: string | undefined;

  preset(traceId: string): void {
    this.next = traceId;
  }

  generateTraceId(): string {
    const preset = this.next;
    if (preset === undefined) return this.random.generateTraceId();
    this.next = undefined;
    return preset;
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

function untraced(path: string): boolean {
  return UNTRACED_PATHS.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));
}

function samplerOf(setting: SamplerSetting): Sampler {
  switch (setting.kind) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(setting.ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(setting.ratio) });
  }
}

/** Drops connection spans that would start a trace of their own; the rest goes to `inner`. */
class NoBareConnectSampler implements Sampler {
  constructor(private readonly inner: Sampler) {}

  shouldSample(ctx: Context, traceId: string, spanName: string, spanKind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    if (CONNECT_SPANS.has(spanName) && trace.getSpan(ctx) === undefined) return { decision: SamplingDecision.NOT_RECORD };
    return this.inner.shouldSample(ctx, traceId, spanName, spanKind, attributes, links);
  }

  toString(): string {
    return `NoBareConnect{${this.inner.toString()}}`;
  }
}

/**
 * Masks credentials and personal data in span attributes before they leave the process, as
 * the log lines are masked (`redactText`: `signature=…`, `key=…`, `user_pwd=…` in a URL or a
 * statement). Runs in the batch export, off the request path.
 */
class RedactingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    for (const span of spans) {
      const attributes = span.attributes as Attributes;
      for (const [key, value] of Object.entries(attributes)) {
        if (typeof value === 'string') attributes[key] = redactText(value);
      }
    }
    this.inner.export(spans, resultCallback);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

function definedOnly<T extends object>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}
