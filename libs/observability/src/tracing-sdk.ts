/**
 * The OpenTelemetry side of `tracing.ts`, required only when tracing is on: the span recorder
 * (`tracing-recorder.ts`), W3C trace context and baggage propagation, the OTLP/HTTP exporter
 * behind the SDK's batch processor, and the instrumentations of what the services use.
 */
import type { IncomingMessage } from 'node:http';
import { ROOT_CONTEXT, type Attributes, SpanKind, context, isSpanContextValid, propagation, trace } from '@opentelemetry/api';
import { CompositePropagator, type ExportResult, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { NetInstrumentation } from '@opentelemetry/instrumentation-net';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { detectResources, envDetector, hostDetector, processDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { ExportThread } from './otlp-export-thread';
import { OtlpSpanWriter } from './otlp-span-writer';
import { recordingOnly } from './recording-only';
import { RequestContextManager } from './request-context-manager';
import { SENSITIVE_FIELDS, redactText } from './redact';
import { IdSource, RecordingTracerProvider, SpanSampler, withSpan } from './tracing-recorder';
import type { ServerSpan, TraceFields, TracingHandle, TracingSettings } from './tracing-types';

/** Probes and scrapes: no trace. */
const UNTRACED_PATHS = ['/health/', '/metrics'];

export function startTracingSdk(settings: TracingSettings): TracingHandle {
  const contextManager = new RequestContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));

  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: settings.serviceName,
    [ATTR_SERVICE_VERSION]: process.env.npm_package_version ?? '0.1.0',
  }).merge(detectResources({ detectors: [processDetector, hostDetector, envDetector] }));

  const sampler = new SpanSampler(settings.sampler);
  const ids = new IdSource();
  // The project's span recorder (tracing-recorder.ts) in place of the SDK's tracer provider. Its
  // spans are written as OTLP protobuf when they end (otlp-span-writer.ts) and sent by
  // OpenTelemetry's OTLP/HTTP transport on a thread of its own (otlp-export-thread.ts); OTLP/JSON goes through the SDK's batch processor and
  // JSON exporter. Endpoint, headers, timeout, compression and retries come from the
  // OTEL_EXPORTER_OTLP_* variables either way.
  const processor =
    settings.protocol === 'http/json'
      ? new BatchSpanProcessor({ exporter: new RedactingExporter(new OTLPJsonTraceExporter()), ...definedOnly(settings.batch) })
      : new OtlpSpanWriter(resource, new ExportThread(), definedOnly(settings.batch), redactText);
  const provider = new RecordingTracerProvider(resource, sampler, processor, ids);
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
      // Redis commands: traced under a request that is sampled only (recording-only.ts).
      recordingOnly(new IORedisInstrumentation({ requireParentSpan: true }), () => contextManager.active()),
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
      const parent =
        headers.traceparent === undefined && headers.baggage === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, headers);
      const parentSpan = trace.getSpan(parent);
      const parentIds = parentSpan?.spanContext();
      const valid = parentIds !== undefined && isSpanContextValid(parentIds) ? parentIds : undefined;
      const traceId = valid ? valid.traceId : ids.traceId();
      // Decided once, here. Fast path "unsampled request": the trace's ids (passed downstream
      // with flags 00, on its log lines), no recorded span, no attributes, no close listener.
      if (!sampler.sampled(valid, traceId, method, parentSpan !== undefined)) {
        const active = withSpan(parent, tracer.startWith(method, SpanKind.SERVER, undefined, valid, traceId, false));
        return { recording: false, context: active, end: endNothing };
      }
      // Its fields only, made into a span when written (`ServerSpanRecord`).
      const span = tracer.startServer(method, path, req.socket.remoteAddress ?? '', valid, traceId);
      return {
        recording: true,
        context: withSpan(parent, span),
        end: (status: number, route: string | undefined) => span.finish(status, route),
      };
    },
    async shutdown(): Promise<void> {
      await provider.shutdown();
    },
  };
}

const endNothing = (): void => undefined;

function untraced(path: string): boolean {
  return UNTRACED_PATHS.some((p) => (p.endsWith('/') ? path.startsWith(p) : path === p));
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
