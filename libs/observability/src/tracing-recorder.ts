/**
 * The span recorder of `tracing-sdk.ts`: the OpenTelemetry API's tracer provider, tracer and
 * span, made for a service whose requests cost tens of microseconds. It replaces the SDK's
 * `TracerProvider` (its sampler objects, id generator, span class, span limits and self
 * metrics); ended spans go to the SDK's `BatchSpanProcessor` and the OTLP exporters as before,
 * which read them as `ReadableSpan`s.
 *
 * Why (docs/performance.md, "Tracing"): with 10% of the cached lbsQuery sampled, the SDK's
 * per-request work (hex trace ids from `Math.random` parsed back by the ratio sampler, id
 * validation by regular expression, a `Span` with limits and metrics per span, a context copied
 * per decision) cost more than the sampled tenth's export. Here an unsampled span is the API's
 * `NonRecordingSpan` on ids drawn from a pooled `randomFillSync` buffer, decided once from the
 * trace id's bytes; a sampled span is one plain object.
 */
import { randomFillSync } from 'node:crypto';
import {
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanAttributes,
  type SpanAttributeValue,
  type SpanContext,
  SpanKind,
  type SpanOptions,
  type SpanStatus,
  SpanStatusCode,
  type TimeInput,
  TraceFlags,
  type Tracer,
  type TracerProvider,
  ROOT_CONTEXT,
  context as contextApi,
  createContextKey,
  isSpanContextValid,
  trace,
} from '@opentelemetry/api';
import { type InstrumentationScope, hrTime, hrTimeDuration, timeInputToHrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace';
import type { SamplerSetting } from './tracing-types';

/** Connection spans of `instrumentation-net` that have no request around them (pool warm-up, reconnects). */
const CONNECT_SPANS = new Set(['tcp.connect', 'tls.connect', 'ipc.connect', 'connect']);

/** The SDK's defaults (`OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT`, `OTEL_SPAN_EVENT_COUNT_LIMIT`, `OTEL_SPAN_LINK_COUNT_LIMIT`). */
const ATTRIBUTE_LIMIT = 128;
const EVENT_LIMIT = 128;
const LINK_LIMIT = 128;

/**
 * Random trace and span ids from a pooled buffer of `randomFillSync` (one system call per
 * 4 KB of ids instead of four `Math.random` calls and a buffer per id), never all zeros.
 */
export class IdSource {
  private readonly pool = Buffer.allocUnsafe(4096);
  /** The pool in hex, made once per refill: an id is a slice of it, not a native call of its own. */
  private hexPool = '';
  private offset = this.pool.length;

  traceId(): string {
    return this.next(16);
  }

  spanId(): string {
    return this.next(8);
  }

  private next(bytes: number): string {
    for (;;) {
      if (this.offset + bytes > this.pool.length) {
        randomFillSync(this.pool);
        this.hexPool = this.pool.toString('hex');
        this.offset = 0;
      }
      const start = this.offset;
      this.offset += bytes;
      for (let i = start; i < start + bytes; i++) if (this.pool[i] !== 0) return this.hexPool.slice(2 * start, 2 * (start + bytes));
    }
  }
}

/**
 * Whether a span is sampled, by the standard sampler names (`OTEL_TRACES_SAMPLER`). A ratio is
 * decided on the trace id alone, as the specification's consistent probability sampling does:
 * its last 56 bits, kept when at least `(1 - ratio) * 2^56` (so every service that decides
 * this way decides the same for a trace, and a ratio of 1 keeps all).
 */
export class SpanSampler {
  private readonly parentBased: boolean;
  private readonly root: (traceId: string) => boolean;

  constructor(setting: SamplerSetting) {
    this.parentBased = setting.kind.startsWith('parentbased_');
    if ('ratio' in setting) {
      const ratio = setting.ratio;
      const [high, low] = ratioThreshold(ratio);
      this.root = ratio >= 1 ? always : ratio <= 0 ? never : (traceId) => randomnessAtLeast(traceId, high, low);
    } else {
      this.root = setting.kind === 'always_on' || setting.kind === 'parentbased_always_on' ? always : never;
    }
  }

  /**
   * `parent` is the parent's span context when the span has a valid one; `hasParentSpan`
   * says whether the context held a span at all (a connection span without one is dropped).
   */
  sampled(parent: SpanContext | undefined, traceId: string, name: string, hasParentSpan: boolean): boolean {
    if (!hasParentSpan && CONNECT_SPANS.has(name)) return false;
    if (this.parentBased && parent !== undefined) return (parent.traceFlags & TraceFlags.SAMPLED) !== 0;
    return this.root(traceId);
  }
}

const always = (): boolean => true;
const never = (): boolean => false;

/**
 * The specification's rejection threshold of a ratio, `(1 - ratio) * 2^56`, as its high and
 * low 28 bits (2^56 is past the integers a double holds exactly).
 */
export function ratioThreshold(ratio: number): [high: number, low: number] {
  const threshold = Math.round((1 - Math.min(1, Math.max(0, ratio))) * 2 ** 56);
  const high = Math.floor(threshold / 2 ** 28);
  return [high, Math.max(0, threshold - high * 2 ** 28)];
}

/** Whether the last 56 bits of a 32-digit hex trace id (its randomness) are at least the threshold. */
export function randomnessAtLeast(traceId: string, high: number, low: number): boolean {
  const h = hexValue(traceId, 18, 25);
  return h > high || (h === high && hexValue(traceId, 25, 32) >= low);
}

/** The value of `text`'s hex digits from `from` to `to` (at most 13 of them: a double holds it exactly). */
function hexValue(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) value = value * 16 + nibble(text.charCodeAt(i));
  return value;
}

/** The value of a hex digit's character code (lower or upper case). */
function nibble(code: number): number {
  return code <= 57 ? code - 48 : (code | 32) - 87;
}

/** What every tracer of a provider shares. */
interface Recording {
  readonly resource: Resource;
  readonly processor: SpanProcessor;
  readonly sampler: SpanSampler;
  readonly ids: IdSource;
}

/** The tracer provider given to the API and the instrumentations. */
export class RecordingTracerProvider implements TracerProvider {
  private readonly tracers = new Map<string, RecordingTracer>();
  private readonly recording: Recording;

  constructor(resource: Resource, sampler: SpanSampler, processor: SpanProcessor, ids = new IdSource()) {
    this.recording = { resource, processor, sampler, ids };
  }

  getTracer(name: string, version?: string, options?: { schemaUrl?: string }): RecordingTracer {
    const key = `${name}@${version ?? ''}:${options?.schemaUrl ?? ''}`;
    let tracer = this.tracers.get(key);
    if (!tracer) {
      // One scope object per tracer: the protobuf writer groups spans by its identity.
      tracer = new RecordingTracer({ name, version, schemaUrl: options?.schemaUrl }, this.recording);
      this.tracers.set(key, tracer);
    }
    return tracer;
  }

  /** Exports the spans still pending and stops the processor (and its exporter). */
  shutdown(): Promise<void> {
    return this.recording.processor.shutdown();
  }
}

export class RecordingTracer implements Tracer {
  constructor(
    private readonly scope: InstrumentationScope,
    private readonly recording: Recording,
  ) {}

  startSpan(name: string, options: SpanOptions = {}, ctx: Context = contextApi.active()): Span {
    const parentSpan = options.root ? undefined : trace.getSpan(ctx);
    const parentIds = parentSpan?.spanContext();
    const parent = parentIds !== undefined && isSpanContextValid(parentIds) ? parentIds : undefined;
    const traceId = parent ? parent.traceId : this.recording.ids.traceId();
    const sampled = this.recording.sampler.sampled(parent, traceId, name, parentSpan !== undefined);
    return this.startWith(name, options.kind ?? SpanKind.INTERNAL, options.attributes, parent, traceId, sampled, options);
  }

  /**
   * A span on a decided trace id: sampled, recorded; otherwise the API's non-recording span on
   * new ids (passed downstream with flags 00 and on the log lines, exported never).
   */
  startWith(
    name: string,
    kind: SpanKind,
    attributes: SpanAttributes | undefined,
    parent: SpanContext | undefined,
    traceId: string,
    sampled: boolean,
    options?: SpanOptions,
  ): Span {
    const ids: SpanContext = {
      traceId,
      spanId: this.recording.ids.spanId(),
      traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
      traceState: parent?.traceState,
    };
    if (!sampled) return trace.wrapSpanContext(ids);
    const span = new RecordedSpan(this.recording, this.scope, name, kind, ids, parent, options?.startTime);
    if (attributes) span.setAttributes(attributes);
    if (options?.links) span.addLinks(options.links);
    return span;
  }

  /** A sampled request's server span (`ServerSpanRecord`) on a decided trace id. */
  startServer(method: string, path: string, client: string, parent: SpanContext | undefined, traceId: string): ServerSpanRecord {
    const ids: SpanContext = {
      traceId,
      spanId: this.recording.ids.spanId(),
      traceFlags: TraceFlags.SAMPLED,
      traceState: parent?.traceState,
    };
    return new ServerSpanRecord(this.recording, this.scope, ids, parent, method, path, client);
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, ctx: Context, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
    const fn = rest.pop() as F;
    const options = (rest[0] as SpanOptions | undefined) ?? {};
    const ctx = (rest[1] as Context | undefined) ?? contextApi.active();
    const span = this.startSpan(name, options, ctx);
    return contextApi.with(withSpan(ctx, span), fn as (span: Span) => ReturnType<F>, undefined, span);
  }
}

const NO_LINKS = Object.freeze([]) as unknown as Link[];
const NO_EVENTS = Object.freeze([]) as unknown as TimedEvent[];
const NOT_ENDED = Object.freeze([0, 0]) as unknown as HrTime;
const UNSET: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });

/** A sampled span: recorded while open, handed to the processor once, when it ends. */
export class RecordedSpan implements Span, ReadableSpan {
  readonly attributes: Attributes = {};
  // Shared, read-only, until the span has links, events, a status or an end of its own: most
  // spans never do, and a request's spans then make five objects fewer.
  links: Link[] = NO_LINKS;
  events: TimedEvent[] = NO_EVENTS;
  readonly startTime: HrTime;
  endTime: HrTime = NOT_ENDED;
  duration: HrTime = NOT_ENDED;
  status: SpanStatus = UNSET;
  ended = false;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  private attributeCount = 0;

  constructor(
    private readonly recording: Recording,
    readonly instrumentationScope: InstrumentationScope,
    public name: string,
    readonly kind: SpanKind,
    private readonly ids: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
    startTime: TimeInput | undefined,
  ) {
    this.startTime = startTime === undefined ? hrTime() : timeInputToHrTime(startTime);
  }

  get resource(): Resource {
    return this.recording.resource;
  }

  spanContext(): SpanContext {
    return this.ids;
  }

  setAttribute(key: string, value: SpanAttributeValue | undefined): this {
    if (this.ended || key === '' || !attributeValue(value)) return this;
    if (!(key in this.attributes)) {
      if (this.attributeCount >= ATTRIBUTE_LIMIT) {
        this.droppedAttributesCount++;
        return this;
      }
      this.attributeCount++;
    }
    this.attributes[key] = Array.isArray(value) ? ([...(value as AttributeValue[] as unknown[])] as AttributeValue) : value;
    return this;
  }

  setAttributes(attributes: SpanAttributes): this {
    for (const key in attributes) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrStartTime?: SpanAttributes | TimeInput, startTime?: TimeInput): this {
    if (this.ended) return this;
    if (this.events.length >= EVENT_LIMIT) {
      this.droppedEventsCount++;
      return this;
    }
    let attributes: SpanAttributes | undefined;
    if (isTimeInput(attributesOrStartTime)) startTime = attributesOrStartTime;
    else attributes = attributesOrStartTime;
    if (this.events === NO_EVENTS) this.events = [];
    this.events.push({
      name,
      attributes: attributes ? onlyValid(attributes) : undefined,
      time: startTime === undefined ? hrTime() : timeInputToHrTime(startTime),
    });
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links.length >= LINK_LIMIT) this.droppedLinksCount++;
    else {
      if (this.links === NO_LINKS) this.links = [];
      this.links.push(link.attributes ? { ...link, attributes: onlyValid(link.attributes) } : link);
    }
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.ended || this.status.code === SpanStatusCode.OK) return this;
    if (status.code === SpanStatusCode.UNSET) return this;
    this.status = status.code === SpanStatusCode.ERROR ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.ended = true;
    this.endTime = endTime === undefined ? hrTime() : timeInputToHrTime(endTime);
    this.duration = hrTimeDuration(this.startTime, this.endTime);
    if (this.duration[0] < 0) {
      this.endTime = this.startTime;
      this.duration = [0, 0];
    }
    this.recording.processor.onEnd(this);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception) {
      const type = exception.code !== undefined ? String(exception.code) : exception.name;
      if (type) attributes['exception.type'] = type;
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] !== undefined || attributes['exception.message'] !== undefined)
      this.addEvent('exception', attributes, time);
  }
}

const ERROR: SpanStatus = Object.freeze({ code: SpanStatusCode.ERROR });

/**
 * A sampled request's server span as the request observer makes it (`tracing-sdk.ts`): its ids,
 * start, method, path and client address, and at its end the route and status, kept as they
 * are. Its name, attributes, times and status are made when it is written, in the writer's
 * bursts (`OtlpSpanWriter`), as `startWith` and `end` would have made them. Anything done to it
 * through the API (an attribute, event, link, status or name of its own) makes it a
 * `RecordedSpan` first, which the request's end then finishes as before.
 *
 * Why (docs/performance.md, "The sixteenth round"): with one request in ten sampled, the work a
 * sampled request did for its span as it went (an attributes object, times, a name, the
 * protobuf) cost it many times what it costs in a loop. Kept as plain fields, and written with
 * the writer's next 64 spans, the 10% row was 1 to 3.6 points lower in three runs that had both.
 */
export class ServerSpanRecord implements Span, ReadableSpan {
  readonly kind = SpanKind.SERVER;
  readonly links: Link[] = NO_LINKS;
  readonly events: TimedEvent[] = NO_EVENTS;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  ended = false;
  private readonly startAt = performance.now();
  private endAt = 0;
  private route: string | undefined = undefined;
  private code = 0;
  /** The span once something of its own was recorded on it. */
  private recorded: RecordedSpan | undefined = undefined;
  /** Its attributes, made once it has ended (a processor may mask them in place). */
  private madeAttributes: Attributes | undefined = undefined;

  constructor(
    private readonly recording: Recording,
    readonly instrumentationScope: InstrumentationScope,
    private readonly ids: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
    private readonly method: string,
    private readonly path: string,
    private readonly client: string,
  ) {}

  get resource(): Resource {
    return this.recording.resource;
  }

  get name(): string {
    return this.route === undefined ? this.method : spanName(this.method, this.route);
  }

  get startTime(): HrTime {
    return hrTime(this.startAt);
  }

  get endTime(): HrTime {
    return this.ended ? hrTime(this.endAt) : NOT_ENDED;
  }

  get duration(): HrTime {
    return this.ended ? hrTimeDuration(this.startTime, this.endTime) : NOT_ENDED;
  }

  get attributes(): Attributes {
    if (this.madeAttributes !== undefined) return this.madeAttributes;
    const attributes = this.requestAttributes();
    if (!this.ended) return attributes;
    if (this.route !== undefined) attributes['http.route'] = this.route;
    if (this.code > 0) attributes['http.response.status_code'] = this.code;
    this.madeAttributes = attributes;
    return attributes;
  }

  get status(): SpanStatus {
    return this.ended && failed(this.code) ? ERROR : UNSET;
  }

  spanContext(): SpanContext {
    return this.ids;
  }

  isRecording(): boolean {
    return !this.ended;
  }

  setAttribute(key: string, value: SpanAttributeValue | undefined): this {
    if (!this.ended) this.asRecorded().setAttribute(key, value);
    return this;
  }

  setAttributes(attributes: SpanAttributes): this {
    if (!this.ended) this.asRecorded().setAttributes(attributes);
    return this;
  }

  addEvent(name: string, attributesOrStartTime?: SpanAttributes | TimeInput, startTime?: TimeInput): this {
    if (!this.ended) this.asRecorded().addEvent(name, attributesOrStartTime, startTime);
    return this;
  }

  addLink(link: Link): this {
    if (!this.ended) this.asRecorded().addLink(link);
    return this;
  }

  addLinks(links: Link[]): this {
    if (!this.ended) this.asRecorded().addLinks(links);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (!this.ended) this.asRecorded().setStatus(status);
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.asRecorded().updateName(name);
    return this;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    if (!this.ended) this.asRecorded().recordException(exception, time);
  }

  /** Ends the span with the request's answer (`ServerSpan.end`): status 0 is a connection closed first. */
  finish(status: number, route: string | undefined): void {
    if (this.ended) return;
    this.ended = true;
    const recorded = this.recorded;
    if (recorded === undefined) {
      this.endAt = performance.now();
      this.route = route;
      this.code = status;
      this.recording.processor.onEnd(this);
      return;
    }
    if (route !== undefined) {
      recorded.updateName(spanName(this.method, route));
      recorded.setAttribute('http.route', route);
    }
    if (status > 0) recorded.setAttribute('http.response.status_code', status);
    if (failed(status)) recorded.setStatus(ERROR);
    recorded.end();
  }

  /** The API's end, not the request's: the span ends as it stands, with no route or status. */
  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.ended = true;
    this.asRecorded().end(endTime);
  }

  private asRecorded(): RecordedSpan {
    if (this.recorded === undefined) {
      const span = new RecordedSpan(
        this.recording,
        this.instrumentationScope,
        this.method,
        SpanKind.SERVER,
        this.ids,
        this.parentSpanContext,
        hrTime(this.startAt),
      );
      span.setAttributes(this.requestAttributes());
      this.recorded = span;
    }
    return this.recorded;
  }

  /** What the request says of itself (the query string is left out: it carries signatures). */
  private requestAttributes(): Attributes {
    return { 'http.request.method': this.method, 'url.path': this.path, 'client.address': this.client };
  }
}

/** An answer the server span marks as an error: a server error, or none (the connection closed first). */
function failed(status: number): boolean {
  return status >= 500 || status === 0;
}

/** `METHOD route`, made once per method and route template (a route is one of the app's: a bounded set). */
const spanNames = new Map<string, Map<string, string>>();
export function spanName(method: string, route: string): string {
  let byMethod = spanNames.get(route);
  if (byMethod === undefined) {
    byMethod = new Map();
    spanNames.set(route, byMethod);
  }
  let name = byMethod.get(method);
  if (name === undefined) {
    name = `${method} ${route}`;
    byMethod.set(method, name);
  }
  return name;
}

const SPAN_KEY = createContextKey('OpenTelemetry Context Key SPAN');

/**
 * A context: its parent's values and one more, found by walking up. The API's own context
 * copies its parent's map and makes three closures per `setValue`; a request makes one of these
 * for its server span (`withSpan`).
 */
class LinkedContext implements Context {
  constructor(
    private readonly parent: Context,
    private readonly key: symbol,
    private readonly value: unknown,
  ) {}

  getValue(key: symbol): unknown {
    return key === this.key ? this.value : this.parent.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return new LinkedContext(this, key, value);
  }

  deleteValue(key: symbol): Context {
    return new LinkedContext(this, key, undefined);
  }
}

/** `trace.setSpan(ctx, span)`, as a `LinkedContext` when the API finds its span there (checked once). */
export const withSpan: (ctx: Context, span: Span) => Context = (() => {
  const probe = trace.wrapSpanContext({ traceId: '1'.repeat(32), spanId: '1'.repeat(16), traceFlags: TraceFlags.NONE });
  const linked = (ctx: Context, span: Span): Context => new LinkedContext(ctx, SPAN_KEY, span);
  return trace.getSpan(linked(ROOT_CONTEXT, probe)) === probe ? linked : (ctx: Context, span: Span) => trace.setSpan(ctx, span);
})();

function attributeValue(value: unknown): value is AttributeValue {
  if (value === null || value === undefined) return false;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  if (!Array.isArray(value)) return false;
  let kind: string | undefined;
  for (const item of value) {
    if (item === null || item === undefined) continue;
    const itemType = typeof item;
    if (itemType !== 'string' && itemType !== 'number' && itemType !== 'boolean') return false;
    if (kind === undefined) kind = itemType;
    else if (kind !== itemType) return false;
  }
  return true;
}

function onlyValid(attributes: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (key !== '' && attributeValue(value)) out[key] = value;
  }
  return out;
}

function isTimeInput(value: unknown): value is TimeInput {
  return typeof value === 'number' || value instanceof Date || (Array.isArray(value) && value.length === 2 && typeof value[0] === 'number');
}
