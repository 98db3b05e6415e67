/**
 * The span writer's sender (`otlp-span-writer.ts`) on a thread of its own: the protobuf bytes a
 * batch was written into are posted to a worker thread, which sends them through OpenTelemetry's
 * OTLP/HTTP transport (its endpoint, headers, compression, timeout and retries from the
 * `OTEL_EXPORTER_OTLP_*` variables) and posts the result back.
 *
 * Why (docs/performance.md, "The fifth round"): a process that sends its spans itself runs
 * Node's HTTP client, its sockets and their streams on the main thread, next to the server's.
 * The streams and sockets code the two share (`Socket._writeGeneric`, `afterWrite`, `doWrite`,
 * `Readable.push`, `OutgoingMessage`) then sees objects of two kinds, and V8's inline caches
 * there go polymorphic or megamorphic for the rest of the process's life (V8's `--log-ic`: 14 of
 * them in the streams code, polymorphic or megamorphic in the traced process, monomorphic in the
 * untraced one). Every request pays for that, although one in ten or a hundred is sent. A
 * worker is a V8 isolate of its own: its caches are not the server's.
 *
 * This file imports only packages (no file of the library), so that the worker can load it as it
 * is, compiled or, under the unit tests, from its TypeScript source.
 */
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { ExportResult } from '@opentelemetry/core';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';

/** What the transport sends: the request's bytes and how many spans they hold. */
export interface EncodedSpans {
  readonly bytes: Uint8Array;
  readonly count: number;
}

/**
 * The part of OpenTelemetry's `OTLPExporterBase` the writer uses. The writer writes its next
 * batch over the bytes once `export` has returned: a sender that sends later copies them first
 * (`ExportThread` does); the transport itself keeps them, and is given bytes nothing writes over
 * until it has answered.
 */
export interface EncodedSpanExporter {
  export(batch: EncodedSpans, done: (result: ExportResult) => void): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry's OTLP/HTTP protobuf transport (what its protobuf trace exporter is made of),
 * sending requests the span writer has written; the collector's answer is read by
 * OpenTelemetry's deserialiser (partial successes are logged). Runs on the thread that calls it:
 * the services call it on the export thread only (`ExportThread`).
 */
export function otlpHttpProtobufTransport(): EncodedSpanExporter {
  const options = convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' });
  const serializer = {
    serializeRequest: (batch: EncodedSpans) => batch.bytes,
    deserializeResponse: (data: Uint8Array) => ProtobufTraceSerializer.deserializeResponse(data),
  };
  const metrics = { name: 'span' as const, countItems: (batch: EncodedSpans) => batch.count };
  return new OTLPExporterBase<EncodedSpans>(
    createOtlpHttpExportDelegate(options, serializer, 'otlp_http_span_exporter', metrics, undefined),
  );
}

/** What the export thread is told: `workerData` marks it, each message is a batch or the end. */
const ROLE = 'geoaccount-otlp-export';
type ToThread =
  | { readonly id: number; readonly shared: SharedArrayBuffer; readonly length: number; readonly count: number }
  | { readonly id: number; readonly shutdown: true };
type FromThread = { readonly id: number; readonly code: number; readonly error?: string };

/**
 * The sender seen from the main thread: each batch's bytes are copied into a buffer shared with
 * the export thread, which is told where they are, and `done` is called with the thread's result.
 * The thread is started at the first batch (a process that samples nothing never starts it) and
 * does not keep the process alive; if it stops, the batches it held fail and the next batch
 * starts a new one.
 *
 * Why shared buffers, kept (docs/performance.md, "The ninth round"): a batch is about 130 KB, and
 * a new buffer of that size per batch, copied or handed over, is memory the allocator maps and
 * unmaps each time (above glibc's 128 KB threshold), zero-filled page by page: ~120 µs of CPU per
 * batch against ~1 µs for a message that points into a shared buffer already mapped. A buffer is
 * used again once the thread has answered for the batch in it (never while it may still be
 * sending it); at most `KEPT_BUFFERS` are kept.
 */
export class ExportThread implements EncodedSpanExporter {
  private worker: Worker | undefined;
  /** Each message the thread has not answered yet: who is told, and the shared buffer of a batch. */
  private readonly waiting = new Map<number, Waiting>();
  /** Shared buffers no batch is in: the next batches are copied into these. */
  private readonly kept: SharedArrayBuffer[] = [];
  /** Shared buffers made so far (tests). */
  buffersMade = 0;
  private nextId = 0;
  private readonly script: string;

  /** `script`: this file, compiled or (unit tests) its source. */
  constructor(script: string = defaultScript()) {
    this.script = script;
  }

  /** The bytes are copied before it returns: the caller may write its next batch over them. */
  export(batch: EncodedSpans, done: (result: ExportResult) => void): void {
    const id = ++this.nextId;
    const length = batch.bytes.length;
    const shared = this.sharedBuffer(length);
    new Uint8Array(shared, 0, length).set(batch.bytes);
    this.waiting.set(id, { done, shared });
    this.started().postMessage({ id, shared, length, count: batch.count } satisfies ToThread);
  }

  /** The writer waits for its own batches; nothing is held here besides them. */
  async forceFlush(): Promise<void> {
    await Promise.all([...this.waiting.keys()].map((id) => this.settled(id)));
  }

  async shutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const id = ++this.nextId;
    const ended = new Promise<ExportResult>((resolve) => this.waiting.set(id, { done: resolve }));
    this.started().postMessage({ id, shutdown: true } satisfies ToThread);
    await ended;
    this.worker = undefined;
    await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    // From its TypeScript source (unit tests), Node reads the file as a module and says so once.
    const execArgv = this.script.endsWith('.ts') ? [...process.execArgv, '--disable-warning=MODULE_TYPELESS_PACKAGE_JSON'] : undefined;
    // `env`: the environment as it is now, `process.env` of this module's realm (under a test
    // runner, the test's).
    const worker = new Worker(this.script, { workerData: { role: ROLE }, env: process.env, execArgv });
    worker.unref();
    worker.on('message', (reply: FromThread) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      this.keep(waiting.shared);
      waiting.done({ code: reply.code, error: reply.error === undefined ? undefined : new Error(reply.error) });
    });
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const waiting = [...this.waiting.values()];
      this.waiting.clear();
      for (const { done, shared } of waiting) {
        this.keep(shared); // the thread is gone: nothing reads the buffer any more
        done({ code: FAILED, error });
      }
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the span export thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** A kept buffer of at least `length` bytes, or a new one (a power of two from 64 KiB). */
  private sharedBuffer(length: number): SharedArrayBuffer {
    const at = this.kept.findIndex((b) => b.byteLength >= length);
    if (at >= 0) return this.kept.splice(at, 1)[0]!;
    let size = 65536;
    while (size < length) size *= 2;
    this.buffersMade++;
    return new SharedArrayBuffer(size);
  }

  /** A batch's buffer, once the thread has answered for it: kept for the next batches. */
  private keep(shared: SharedArrayBuffer | undefined): void {
    if (shared !== undefined && this.kept.length < KEPT_BUFFERS) this.kept.push(shared);
  }

  private settled(id: number): Promise<void> {
    const waiting = this.waiting.get(id);
    if (!waiting) return Promise.resolve();
    return new Promise((resolve) => {
      const done = waiting.done;
      waiting.done = (result) => {
        done(result);
        resolve();
      };
    });
  }
}

interface Waiting {
  done: (result: ExportResult) => void;
  readonly shared?: SharedArrayBuffer;
}

/** `ExportResultCode.FAILED` (not imported: the core package's enum would be loaded for one number). */
const FAILED = 1;

/** Shared buffers kept for later batches (more are made while more batches are in flight, and dropped after). */
const KEPT_BUFFERS = 4;

function defaultScript(): string {
  return join(__dirname, __filename.endsWith('.ts') ? 'otlp-export-thread.ts' : 'otlp-export-thread.js');
}

/** The export thread itself: a transport, and a message loop around it. */
if (!isMainThread && parentPort && (workerData as { role?: string } | undefined)?.role === ROLE) {
  const port = parentPort;
  const transport = otlpHttpProtobufTransport();
  port.on('message', (message: ToThread) => {
    if ('shutdown' in message) {
      void transport.shutdown().finally(() => port.postMessage({ id: message.id, code: 0 } satisfies FromThread));
      return;
    }
    // A view of the shared buffer, not a copy: the main thread writes no other batch into it until this one is answered.
    transport.export({ bytes: Buffer.from(message.shared, 0, message.length), count: message.count }, (result) =>
      port.postMessage({ id: message.id, code: result.code, error: result.error?.message } satisfies FromThread),
    );
  });
}
