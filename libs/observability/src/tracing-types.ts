/** The shapes shared by `tracing.ts` (always loaded) and `tracing-sdk.ts` (loaded only when tracing is on). */
import type { IncomingMessage } from 'node:http';
import type { Context } from '@opentelemetry/api';

/** The trace and span of the active span, as log lines carry them. */
export interface TraceFields {
  trace_id: string;
  span_id: string;
}

/** What the SDK side gives back once started (see `tracing-sdk.ts`). */
export interface TracingHandle {
  /** The ids of the active span, if any. */
  activeIds(): TraceFields | undefined;
  /** The server span of an incoming request; undefined for probes and scrapes. */
  startServerSpan(req: IncomingMessage): ServerSpan | undefined;
  /** Exports what is pending and stops the SDK. */
  shutdown(): Promise<void>;
}

/** A request's server span (see `httpObserver`). */
export interface ServerSpan {
  /** Whether the request is sampled (its span recorded and exported); `end` does nothing otherwise. */
  readonly recording: boolean;
  /** The OpenTelemetry context with the span active, for the request's store (`RequestContext.trace`). */
  readonly context: Context;
  /** Ends the span with the answer's status, named `METHOD route` when the route is known. */
  end(status: number, route: string | undefined): void;
}

export interface TracingSettings {
  /** `service.name` unless `OTEL_SERVICE_NAME` / `OTEL_RESOURCE_ATTRIBUTES` set one. */
  serviceName: string;
  protocol: 'http/protobuf' | 'http/json';
  sampler: SamplerSetting;
  batch: { scheduledDelayMillis?: number; maxQueueSize?: number; maxExportBatchSize?: number; exportTimeoutMillis?: number };
}

export type SamplerSetting =
  | { kind: 'always_on' | 'always_off' | 'parentbased_always_on' | 'parentbased_always_off' }
  | { kind: 'traceidratio' | 'parentbased_traceidratio'; ratio: number };

