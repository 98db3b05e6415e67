import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeOtlpTraces } from './otlp-protobuf';

/*
 * Test support for the tracing suites: an OTLP/HTTP trace receiver on loopback that accepts
 * both encodings (protobuf, the default, and `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) on
 * `/v1/traces`, as a collector does, and keeps every span it is sent. Not used by the services
 * themselves.
 */

/** SpanKind of OTLP. */
export const OTLP_SPAN_KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

export interface ReceivedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status: number;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number };
}
interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests that were not a trace export (wrong path, type or body). */
  readonly rejected: string[] = [];
  /** The encodings exports came in (`http/json`, `http/protobuf`). */
  readonly protocols = new Set<string>();
  private server?: Server;

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server = createServer((req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** The value for `OTEL_EXPORTER_OTLP_ENDPOINT` (the exporter adds `/v1/traces`). */
  get endpoint(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Waits until `predicate` holds for the spans received so far, and returns them. */
  async waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs = 10_000): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.spans)) {
      if (Date.now() > deadline) {
        throw new Error(`spans not received within ${timeoutMs} ms; got:\n${this.spans.map((s) => `${s.service} ${s.name} ${s.spanId}<-${s.parentSpanId}`).join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.spans;
  }

  /** The spans of one trace whose parent chain reaches `ancestor`. */
  descendantsOf(ancestor: ReceivedSpan): ReceivedSpan[] {
    const byId = new Map(this.spans.filter((s) => s.traceId === ancestor.traceId).map((s) => [s.spanId, s]));
    return [...byId.values()].filter((span) => {
      let parent = byId.get(span.parentSpanId);
      for (let hops = 0; parent && hops < 64; hops++) {
        if (parent.spanId === ancestor.spanId) return true;
        parent = byId.get(parent.parentSpanId);
      }
      return false;
    });
  }

  reset(): void {
    this.spans.length = 0;
    this.rejected.length = 0;
    this.protocols.clear();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const type = req.headers['content-type'] ?? '';
      const json = type.startsWith('application/json');
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !(json || type.startsWith('application/x-protobuf'))) {
        this.rejected.push(`${req.method} ${req.url} ${type}`);
        res.writeHead(415).end();
        return;
      }
      try {
        const body = Buffer.concat(chunks);
        this.keep(json ? (JSON.parse(body.toString('utf8')) as OtlpTraces) : decodeOtlpTraces(body));
        this.protocols.add(json ? 'http/json' : 'http/protobuf');
      } catch (err) {
        this.rejected.push(`bad body: ${(err as Error).message}`);
        res.writeHead(400).end();
        return;
      }
      // An empty ExportTraceServiceResponse either way.
      if (json) res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  }

  private keep(body: OtlpTraces): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            service,
            scope: scopeSpans.scope?.name ?? '',
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            status: span.status?.code ?? 0,
          });
        }
      }
    }
  }
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if (value?.stringValue !== undefined) out[key] = value.stringValue;
    else if (value?.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value?.doubleValue !== undefined) out[key] = value.doubleValue;
    else if (value?.boolValue !== undefined) out[key] = value.boolValue;
  }
  return out;
}
