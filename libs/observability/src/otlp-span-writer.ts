/**
 * The OTLP/HTTP protobuf side of the span recorder (`tracing-recorder.ts`): a span processor that
 * writes the spans' protobuf bytes soon after they end, and sends the bytes gathered, as one
 * `ExportTraceServiceRequest`, to a sender: in the services, OpenTelemetry's OTLP/HTTP
 * transport on a thread of its own (`otlp-export-thread.ts`).
 *
 * Why (docs/performance.md, Tracing): the SDK's batch processor keeps every span object until
 * its batch is sent (up to 512 spans or 5 s), then walks them to serialise them, twice (a size
 * pass and a write pass): with every request traced, that walk over objects long out of the
 * processor's cache was the largest single cost of a traced request. Here spans are written soon
 * after they end, 64 at a time (`WRITE_BURST`), into one buffer per instrumentation scope, and are
 * garbage at once; the resource and each scope are written once. The bytes are those of
 * OpenTelemetry's own serialiser (a test compares them), with string attributes masked as the log
 * lines are (`redactText`).
 */
import { type Attributes, type AttributeValue, type HrTime, TraceFlags, diag } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { EncodedSpanExporter } from './otlp-export-thread';

export type { EncodedSpanExporter, EncodedSpans } from './otlp-export-thread';

export interface SpanWriterSettings {
  scheduledDelayMillis?: number;
  maxQueueSize?: number;
  maxExportBatchSize?: number;
  exportTimeoutMillis?: number;
}

const LEN = 2;
const VARINT = 0;
const I64 = 1;
const I32 = 5;

/** A growable protobuf byte writer; a length-delimited field reserves one byte and moves what follows if its length needs more. */
export class ProtoBytes {
  buf: Buffer;
  pos = 0;

  constructor(size = 4096) {
    this.buf = Buffer.allocUnsafe(size);
  }

  reset(): void {
    this.pos = 0;
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  varint(value: number): void {
    this.ensure(10);
    const buf = this.buf;
    if (value >= 0 && value <= 0xffffffff) {
      let v = value >>> 0;
      while (v > 127) {
        buf[this.pos++] = (v & 127) | 128;
        v >>>= 7;
      }
      buf[this.pos++] = v;
      return;
    }
    // 64-bit two's complement, as protobuf writes an int64
    const abs = Math.abs(value);
    let low = abs >>> 0;
    let high = (abs / 4294967296) >>> 0;
    if (value < 0) {
      low = ~low >>> 0;
      high = ~high >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 127) {
      buf[this.pos++] = (low & 127) | 128;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buf[this.pos++] = low & 127;
  }

  fixed32(value: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  /** An HrTime as nanoseconds since the epoch (fixed64), exactly (2^64 is past a double's integers). */
  hrTime(time: HrTime): void {
    const [seconds, nanos] = time;
    const low16 = (seconds & 0xffff) * 1e9;
    const high = Math.floor(seconds / 65536) * 1e9; // seconds above 16 bits, times 1e9, in units of 2^16
    const lowSum = (low16 % 4294967296) + ((high % 65536) * 65536) + nanos;
    const lo = lowSum % 4294967296;
    const hi = Math.floor(low16 / 4294967296) + Math.floor(high / 65536) + Math.floor(lowSum / 4294967296);
    this.ensure(8);
    this.buf.writeUInt32LE(lo >>> 0, this.pos);
    this.buf.writeUInt32LE(hi >>> 0, this.pos + 4);
    this.pos += 8;
  }

  double(value: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  string(text: string): void {
    const length = text.length;
    // Short ASCII text (names, keys, routes, addresses) in JavaScript: a call into the native
    // UTF-8 writer costs more than the copy itself at these lengths.
    if (length < 128) {
      this.ensure(length + 1);
      const buf = this.buf;
      const start = this.pos;
      buf[start] = length;
      let at = start + 1;
      for (let i = 0; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code > 127) {
          this.pos = start;
          this.utf8(text);
          return;
        }
        buf[at++] = code;
      }
      this.pos = at;
      return;
    }
    this.utf8(text);
  }

  private utf8(text: string): void {
    const n = Buffer.byteLength(text);
    this.varint(n);
    this.ensure(n);
    this.pos += this.buf.write(text, this.pos);
  }

  /** `hex` (lower or upper case digits: trace and span ids) as bytes. */
  hex(hex: string): void {
    const n = hex.length >>> 1;
    this.varint(n);
    this.ensure(n);
    // Node's native hex decoder: an id is a slice of a longer string (the id pool's hex, a
    // traceparent), which JavaScript reads character by character at several times the cost.
    const written = this.buf.write(hex, this.pos, n, 'hex');
    // Not hex throughout (ids are checked before they get here): zeros, never earlier bytes.
    if (written < n) this.buf.fill(0, this.pos + written, this.pos + n);
    this.pos += n;
  }

  raw(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.append(bytes);
  }

  append(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** Starts a length-delimited value; `end(start)` writes its length. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /**
   * Starts a length-delimited value expected to be 128 bytes to 16 KB long (a span): two bytes are
   * reserved, and `endSized(start)` moves what follows only when its length needs one or three.
   */
  beginSized(): number {
    this.ensure(2);
    const start = this.pos;
    this.pos += 2;
    return start;
  }

  endSized(start: number): void {
    const length = this.pos - start - 2;
    if (length >= 128 && length < 16384) {
      this.buf[start] = (length & 127) | 128;
      this.buf[start + 1] = length >>> 7;
      return;
    }
    // One byte of length: what follows moves one byte back; more than two, forward.
    this.buf.copy(this.buf, start + 1, start + 2, this.pos);
    this.pos -= 1;
    this.end(start);
  }

  end(start: number): void {
    const length = this.pos - start - 1;
    if (length < 128) {
      this.buf[start] = length;
      return;
    }
    let size = 1;
    for (let v = length; v > 127; v >>>= 7) size++;
    this.ensure(size - 1);
    this.buf.copy(this.buf, start + size, start + 1, this.pos);
    this.pos += size - 1;
    let at = start;
    let v = length;
    while (v > 127) {
      this.buf[at++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buf[at] = v;
  }
}

/** `attributes` as repeated KeyValue of `field`, string values passed through `mask`. */
export function writeAttributes(w: ProtoBytes, field: number, attributes: Attributes, mask: (text: string) => string): void {
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) writeKeyValue(w, field, key, value, mask);
  }
}

/** One attribute as a KeyValue of `field`. */
function writeKeyValue(w: ProtoBytes, field: number, key: string, value: AttributeValue, mask: (text: string) => string): void {
  w.tag(field, LEN);
  const kv = w.begin();
  w.tag(1, LEN);
  w.string(key);
  w.tag(2, LEN);
  const any = w.begin();
  writeAnyValue(w, value, mask);
  w.end(any);
  w.end(kv);
}

/** A recurring value's bytes are kept if it is at most this long. */
const KEPT_VALUE_LENGTH = 256;

/**
 * The bytes of the span attributes and names that recur (a route's name, the method, the route,
 * the status, the client's and the database's address, the database system …), each written and
 * masked once and then copied; values that do not recur are written each time. Bounded: at most
 * `valuesPerKey` values of a key are kept (past that, the key's values are written each time:
 * a statement text, an id in a path), at most `maxKeys` keys and `maxNames` names, and no value
 * longer than 256 characters.
 *
 * Why (docs/performance.md, "The eighth round"): with every request traced, writing the spans'
 * protobuf cost about 12% of a cached lbsQuery's CPU, most of it in attributes: their keys and
 * values copied character by character, and each string value masked, the same few values on
 * every request.
 */
export class RecurringFields {
  private readonly keys = new Map<string, Map<string | number | boolean, Uint8Array> | null>();
  private readonly names = new Map<string, Uint8Array>();
  private readonly scratch = new ProtoBytes(512);

  constructor(
    private readonly mask: (text: string) => string,
    private readonly valuesPerKey = 64,
    private readonly maxKeys = 256,
    private readonly maxNames = 256,
  ) {}

  /** The span's attributes as KeyValues of field 9 of `Span`. */
  writeAttributes(w: ProtoBytes, attributes: Attributes): void {
    for (const key in attributes) {
      const value = attributes[key];
      if (value === undefined) continue;
      const bytes = this.attribute(key, value);
      if (bytes === undefined) writeKeyValue(w, 9, key, value, this.mask);
      else w.append(bytes);
    }
  }

  /** The span's name as field 5 of `Span`. */
  writeName(w: ProtoBytes, name: string): void {
    let bytes = this.names.get(name);
    if (bytes === undefined) {
      if (this.names.size >= this.maxNames || name.length > KEPT_VALUE_LENGTH) {
        writeName(w, name);
        return;
      }
      bytes = this.encoded((scratch) => writeName(scratch, name));
      this.names.set(name, bytes);
    }
    w.append(bytes);
  }

  private attribute(key: string, value: AttributeValue): Uint8Array | undefined {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
    if (typeof value === 'string' && value.length > KEPT_VALUE_LENGTH) return undefined;
    let values = this.keys.get(key);
    if (values === null) return undefined;
    if (values === undefined) {
      if (this.keys.size >= this.maxKeys) return undefined;
      values = new Map();
      this.keys.set(key, values);
    }
    let bytes = values.get(value);
    if (bytes === undefined) {
      if (values.size >= this.valuesPerKey) {
        // The key's values do not recur: written each time from now on.
        this.keys.set(key, null);
        return undefined;
      }
      bytes = this.encoded((scratch) => writeKeyValue(scratch, 9, key, value, this.mask));
      values.set(value, bytes);
    }
    return bytes;
  }

  /** What `write` writes, as bytes of their own (kept). */
  private encoded(write: (w: ProtoBytes) => void): Uint8Array {
    const scratch = this.scratch;
    scratch.reset();
    write(scratch);
    return Uint8Array.from(scratch.bytes());
  }
}

/** The span's name as field 5 of `Span`. */
function writeName(w: ProtoBytes, name: string): void {
  w.tag(5, LEN);
  w.string(name);
}

function writeAnyValue(w: ProtoBytes, value: AttributeValue | null | undefined, mask: (text: string) => string): void {
  if (typeof value === 'string') {
    w.tag(1, LEN);
    w.string(mask(value));
  } else if (typeof value === 'boolean') {
    w.tag(2, VARINT);
    w.varint(value ? 1 : 0);
  } else if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63) {
      w.tag(3, VARINT);
      w.varint(value);
    } else {
      w.tag(4, I64);
      w.double(value);
    }
  } else if (Array.isArray(value)) {
    w.tag(5, LEN);
    const list = w.begin();
    for (const item of value) {
      w.tag(1, LEN);
      const at = w.begin();
      writeAnyValue(w, item, mask);
      w.end(at);
    }
    w.end(list);
  }
}

/** One span as the `Span` message (the field order of OpenTelemetry's serialiser). */
export function writeSpan(w: ProtoBytes, span: ReadableSpan, mask: (text: string) => string, recurring: RecurringFields): void {
  const ids = span.spanContext();
  w.tag(1, LEN);
  w.hex(ids.traceId);
  w.tag(2, LEN);
  w.hex(ids.spanId);
  const traceState = ids.traceState?.serialize();
  if (traceState) {
    w.tag(3, LEN);
    w.string(traceState);
  }
  const parent = span.parentSpanContext;
  if (parent?.spanId) {
    w.tag(4, LEN);
    w.hex(parent.spanId);
  }
  recurring.writeName(w, span.name);
  const kind = span.kind == null ? 0 : span.kind + 1;
  if (kind !== 0) {
    w.tag(6, VARINT);
    w.varint(kind);
  }
  w.tag(7, I64);
  w.hrTime(span.startTime);
  w.tag(8, I64);
  w.hrTime(span.endTime);
  recurring.writeAttributes(w, span.attributes);
  w.tag(10, VARINT);
  w.varint(span.droppedAttributesCount);
  for (const event of span.events) {
    w.tag(11, LEN);
    const at = w.begin();
    w.tag(1, I64);
    w.hrTime(event.time);
    w.tag(2, LEN);
    w.string(event.name);
    if (event.attributes) writeAttributes(w, 3, event.attributes, mask);
    w.tag(4, VARINT);
    w.varint(event.droppedAttributesCount || 0);
    w.end(at);
  }
  w.tag(12, VARINT);
  w.varint(span.droppedEventsCount);
  for (const link of span.links) {
    w.tag(13, LEN);
    const at = w.begin();
    w.tag(1, LEN);
    w.hex(link.context.traceId);
    w.tag(2, LEN);
    w.hex(link.context.spanId);
    const linkState = link.context.traceState?.serialize();
    if (linkState) {
      w.tag(3, LEN);
      w.string(linkState);
    }
    if (link.attributes) writeAttributes(w, 4, link.attributes, mask);
    w.tag(5, VARINT);
    w.varint(link.droppedAttributesCount || 0);
    w.tag(6, I32);
    w.fixed32(spanFlags(link.context.traceFlags, link.context.isRemote));
    w.end(at);
  }
  w.tag(14, VARINT);
  w.varint(span.droppedLinksCount);
  w.tag(15, LEN);
  const status = w.begin();
  if (span.status.message) {
    w.tag(2, LEN);
    w.string(span.status.message);
  }
  w.tag(3, VARINT);
  w.varint(span.status.code);
  w.end(status);
  w.tag(16, I32);
  w.fixed32(spanFlags(ids.traceFlags, parent?.isRemote));
}

/** OTLP's span flags: the W3C flags, "has is-remote" and "is remote". */
function spanFlags(traceFlags: number, isRemote: boolean | undefined): number {
  return (traceFlags & 0xff) | 0x100 | (isRemote ? 0x200 : 0);
}

/** The `Resource` message, written once. */
function resourceBytes(resource: Resource, mask: (text: string) => string): Buffer {
  const w = new ProtoBytes(1024);
  if (resource.attributes) writeAttributes(w, 1, resource.attributes, mask);
  w.tag(2, VARINT);
  w.varint(0);
  return Buffer.from(w.bytes());
}

/** The `InstrumentationScope` message. */
function scopeBytes(scope: InstrumentationScope): Buffer {
  const w = new ProtoBytes(256);
  w.tag(1, LEN);
  w.string(scope.name);
  if (scope.version) {
    w.tag(2, LEN);
    w.string(scope.version);
  }
  return Buffer.from(w.bytes());
}

interface ScopeGroup {
  readonly scope: InstrumentationScope;
  readonly scopeBytes: Buffer;
  /** The group's spans, each as field 2 of `ScopeSpans`. */
  readonly spans: ProtoBytes;
  count: number;
}

/**
 * Ended spans are written this many at a time (and all of them when a batch is sent).
 * Why (docs/performance.md, "The sixteenth round"): with one request in ten sampled, the server
 * span kept as its fields (`ServerSpanRecord`) and written with the next 64 spans lowered the 10%
 * row by 1 to 3.6 points in three runs; either change alone did not. 64 spans are still young
 * when written (at 2,000 requests a second: about 30 ms of them, every request sampled; 0.3 s at 10%).
 */
export const WRITE_BURST = 64;

/** The writer's default batch and queue sizes (see `OtlpSpanWriter`). */
export const DEFAULT_BATCH_SIZE = 2048;
export const DEFAULT_QUEUE_SIZE = 8192;

/**
 * The span processor: `onEnd` keeps a sampled span, and the kept spans are written into their
 * scopes' buffers `WRITE_BURST` at a time; a batch is sent when `maxExportBatchSize` spans have
 * ended or `scheduledDelayMillis` after the first; past `maxQueueSize` spans waiting (kept,
 * written or being sent), new ones are dropped and counted.
 *
 * Its defaults are larger than the SDK's batch processor's (512 spans a batch, 2048 queued):
 * 2048 spans a batch (a quarter of the queue when only the queue is set), 8192 queued. A batch
 * costs ~0.4 ms of CPU on the export thread and in the wakeups of both threads whatever its size
 * (the HTTP request, its answer, the messages): at 512 spans it was most of what sending cost a
 * traced request (docs/performance.md, "The ninth round"). Here a queued span is its bytes
 * (~250), not a span object (but for the fewer than 64 not yet written): 8192 of them are ~2 MB,
 * and a batch of 2048 a ~0.5 MB request.
 */
export class OtlpSpanWriter implements SpanProcessor {
  private readonly scheduledDelayMillis: number;
  private readonly maxQueueSize: number;
  private readonly maxExportBatchSize: number;
  private readonly exportTimeoutMillis: number;
  private readonly resource: Buffer | undefined;
  private readonly resourceSchemaUrl: string | undefined;
  private groups = new Map<InstrumentationScope, ScopeGroup>();
  private readonly scopes = new Map<InstrumentationScope, Buffer>();
  private readonly recurring: RecurringFields;
  /** Each request is written here, at the size the largest grew it to: the sender copies it before `export` returns. */
  private readonly requestBytes = new ProtoBytes(65536);
  /** The spans ended since the last burst, not yet written (`WRITE_BURST`). */
  private readonly ended: ReadableSpan[] = [];
  /** Spans ended and not yet sent: written, or waiting in `ended`. */
  private pending = 0;
  private sending = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  /** Spans dropped because the queue was full. */
  dropped = 0;

  constructor(
    resource: Resource,
    private readonly exporter: EncodedSpanExporter,
    settings: SpanWriterSettings,
    private readonly mask: (text: string) => string,
  ) {
    this.scheduledDelayMillis = settings.scheduledDelayMillis ?? 5000;
    this.maxQueueSize = settings.maxQueueSize ?? DEFAULT_QUEUE_SIZE;
    const batch = settings.maxExportBatchSize ?? Math.min(DEFAULT_BATCH_SIZE, Math.max(1, Math.floor(this.maxQueueSize / 4)));
    this.maxExportBatchSize = Math.min(batch, this.maxQueueSize);
    this.exportTimeoutMillis = settings.exportTimeoutMillis ?? 30000;
    this.resource = resourceBytes(resource, mask);
    this.recurring = new RecurringFields(mask);
    this.resourceSchemaUrl = resource.schemaUrl;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.pending + this.sending >= this.maxQueueSize) {
      if (this.dropped++ === 0) diag.debug('span queue full: dropping spans');
      return;
    }
    this.pending++;
    this.ended.push(span);
    if (this.ended.length >= WRITE_BURST) this.writeEnded();
    if (this.pending >= this.maxExportBatchSize) this.send();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.send(), this.scheduledDelayMillis);
      this.timer.unref();
    }
  }

  private writeEnded(): void {
    const ended = this.ended;
    for (let i = 0; i < ended.length; i++) this.write(ended[i]);
    ended.length = 0;
  }

  /** One span into its scope's buffer, as field 2 of `ScopeSpans`. */
  private write(span: ReadableSpan): void {
    const group = this.groupOf(span.instrumentationScope);
    const spans = group.spans;
    spans.tag(2, LEN);
    const at = spans.beginSized();
    writeSpan(spans, span, this.mask, this.recurring);
    spans.endSized(at);
    group.count++;
  }

  async forceFlush(): Promise<void> {
    this.send();
    await Promise.all([...this.inFlight]);
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.forceFlush();
    this.stopped = true;
    await this.exporter.shutdown();
  }

  private groupOf(scope: InstrumentationScope): ScopeGroup {
    let group = this.groups.get(scope);
    if (!group) {
      let bytes = this.scopes.get(scope);
      if (!bytes) {
        bytes = scopeBytes(scope);
        this.scopes.set(scope, bytes);
      }
      group = { scope, scopeBytes: bytes, spans: new ProtoBytes(16384), count: 0 };
      this.groups.set(scope, group);
    }
    return group;
  }

  /** Sends what is written, as one request; the next spans go into new buffers. */
  private send(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending === 0) return;
    this.writeEnded();
    const groups = this.groups;
    const count = this.pending;
    this.pending = 0;
    this.sending += count;
    const request = this.request(groups);
    // The scopes' buffers are copied into the request: kept, at the size they grew to, for the next spans.
    for (const group of groups.values()) {
      group.spans.reset();
      group.count = 0;
    }
    const sent = new Promise<void>((resolve) => {
      let settled = false;
      const settle = (result: ExportResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        this.sending -= count;
        if (result.code !== ExportResultCode.SUCCESS) diag.error('span export failed', result.error);
        resolve();
      };
      const deadline = setTimeout(() => settle({ code: ExportResultCode.FAILED, error: new Error('span export timed out') }), this.exportTimeoutMillis);
      deadline.unref();
      try {
        this.exporter.export({ bytes: request, count }, settle);
      } catch (err) {
        settle({ code: ExportResultCode.FAILED, error: err as Error });
      }
    });
    this.inFlight.add(sent);
    void sent.then(() => this.inFlight.delete(sent));
  }

  /** `ExportTraceServiceRequest`: one `ResourceSpans`, one `ScopeSpans` per scope. */
  private request(groups: Map<InstrumentationScope, ScopeGroup>): Uint8Array {
    const w = this.requestBytes;
    w.reset();
    w.ensure(256 + [...groups.values()].reduce((n, g) => n + g.spans.pos + g.scopeBytes.length + 16, this.resource!.length));
    w.tag(1, LEN);
    const resourceSpans = w.begin();
    w.tag(1, LEN);
    w.raw(this.resource!);
    for (const group of groups.values()) {
      if (group.count === 0) continue;
      w.tag(2, LEN);
      const scopeSpans = w.begin();
      w.tag(1, LEN);
      w.raw(group.scopeBytes);
      w.append(group.spans.bytes());
      if (group.scope.schemaUrl) {
        w.tag(3, LEN);
        w.string(group.scope.schemaUrl);
      }
      w.end(scopeSpans);
    }
    if (this.resourceSchemaUrl) {
      w.tag(3, LEN);
      w.string(this.resourceSchemaUrl);
    }
    w.end(resourceSpans);
    return w.bytes();
  }
}
