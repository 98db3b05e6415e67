/**
 * OpenTelemetry tracing, off by default. A service's `main.ts` calls `startTracing` before it
 * loads anything that is traced (Nest, Express, pg, ioredis, node:http users): the
 * instrumentations patch modules as they are first required. Tracing is on only when an OTLP
 * endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * and neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` says otherwise. When it
 * is off, this file is all that is loaded: no SDK, no patched module, no per-request work.
 */

import type { IncomingMessage } from 'node:http';
export type { SamplerSetting, ServerSpan, TraceFields, TracingHandle, TracingSettings } from './tracing-types';
import type { SamplerSetting, ServerSpan, TraceFields, TracingHandle, TracingSettings } from './tracing-types';

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/**
 * Reads the standard `OTEL_*` variables. Undefined when tracing is off; throws, naming the
 * variable, on a value the service cannot honour (the services refuse to start on it).
 */
export function tracingSettings(serviceName: string, env: NodeJS.ProcessEnv = process.env): TracingSettings | undefined {
  if (flag(env, 'OTEL_SDK_DISABLED')) return undefined;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  if (exporters.includes('none')) return undefined;
  const unknown = exporters.filter((e) => e !== 'otlp');
  if (unknown.length > 0) throw new Error(`OTEL_TRACES_EXPORTER: only otlp or none are supported, not ${unknown.join(',')}`);
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return undefined;
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT']) {
    const value = env[name];
    if (value && !/^https?:\/\/[^\s]+$/.test(value)) throw new Error(`${name}: an http:// or https:// URL is required`);
  }

  const protocolName = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolName] || 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new Error(`${protocolName}: http/protobuf or http/json (grpc is not supported), not ${protocol}`);
  }

  const samplerName = (env.OTEL_TRACES_SAMPLER || 'parentbased_always_on').toLowerCase();
  if (!SAMPLERS.includes(samplerName)) throw new Error(`OTEL_TRACES_SAMPLER: one of ${SAMPLERS.join(', ')}, not ${samplerName}`);
  let sampler: SamplerSetting;
  if (samplerName === 'traceidratio' || samplerName === 'parentbased_traceidratio') {
    const arg = env.OTEL_TRACES_SAMPLER_ARG;
    const ratio = arg === undefined || arg === '' ? 1 : Number(arg);
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw new Error('OTEL_TRACES_SAMPLER_ARG: a ratio from 0 to 1');
    sampler = { kind: samplerName, ratio };
  } else {
    sampler = { kind: samplerName as 'always_on' };
  }

  return {
    serviceName: env.OTEL_SERVICE_NAME || serviceName,
    protocol,
    sampler,
    batch: {
      scheduledDelayMillis: count(env, 'OTEL_BSP_SCHEDULE_DELAY'),
      maxQueueSize: count(env, 'OTEL_BSP_MAX_QUEUE_SIZE'),
      maxExportBatchSize: count(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
      exportTimeoutMillis: count(env, 'OTEL_BSP_EXPORT_TIMEOUT'),
    },
  };
}

let handle: TracingHandle | undefined;

/**
 * Starts tracing when the environment asks for it (see `tracingSettings`). Call it first in
 * `main.ts`, before Nest and the clients are loaded. Returns whether tracing is on.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (handle) return true;
  const settings = tracingSettings(serviceName, env);
  if (!settings) return false;
  // Loaded only now: with tracing off, the SDK and the instrumentations are never required.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  handle = sdk.startTracingSdk(settings);
  return true;
}

/** Whether `startTracing` turned tracing on in this process. */
export function tracingEnabled(): boolean {
  return handle !== undefined;
}

/** `trace_id` and `span_id` of the active span; undefined when tracing is off or no span is active. */
export function activeTraceFields(): TraceFields | undefined {
  return handle?.activeIds();
}

/** The server span of an incoming request (continuing its `traceparent`); undefined when tracing is off. */
export function startServerSpan(req: IncomingMessage): ServerSpan | undefined {
  return handle?.startServerSpan(req);
}

/** Exports the spans still pending (graceful shutdown); nothing when tracing is off. */
export async function flushTracing(): Promise<void> {
  const current = handle;
  handle = undefined;
  await current?.shutdown();
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`${name}: true or false`);
}

function count(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`${name}: a whole number`);
  return Number(value);
}
