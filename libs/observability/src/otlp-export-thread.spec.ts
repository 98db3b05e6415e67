import { mkdtempSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { ExportThread } from './otlp-export-thread';

/** A collector on loopback answering every request with `answer`; what it received is kept. */
async function collector(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const received: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks));
      answer(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

/** A collector that holds its answers while held (`hold`), until `release`. */
async function gatedCollector() {
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const sink = await collector((_req, res) => void gate.then(() => res.writeHead(200).end()));
  const hold = () => void (gate = new Promise<void>((r) => (release = r)));
  return { sink, hold, release: () => release() };
}

/** `exporter.export` as a promise. */
function exported(exporter: ExportThread, bytes: Uint8Array, count = 1): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export({ bytes, count }, resolve));
}

describe('ExportThread', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('sends each batch from its thread and reports the collector’s answer, success or refusal', async () => {
    let status = 200;
    const sink = await collector((_req, res) => res.writeHead(status, { 'content-type': 'application/x-protobuf' }).end());
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url;
    const exporter = new ExportThread();
    try {
      const ok = await exported(exporter, Buffer.from('first batch'));
      status = 400; // not retried by the transport
      const refused = await exported(exporter, Buffer.from('second batch'));
      expect(ok).toEqual({ code: ExportResultCode.SUCCESS, error: undefined });
      expect(refused.code).toBe(ExportResultCode.FAILED);
      expect(refused.error).toBeInstanceOf(Error);
      expect(sink.received.map(String)).toEqual(['first batch', 'second batch']);
    } finally {
      await exporter.shutdown();
      await sink.close();
    }
  });

  it('copies each batch into a shared buffer it keeps, and never into one the thread may still be sending', async () => {
    const { sink, hold, release } = await gatedCollector();
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url;
    const exporter = new ExportThread();
    try {
      // One batch at a time: one buffer, whatever the caller writes over its own bytes after each call.
      const bytes = Buffer.alloc(100_000);
      for (const fill of [1, 2, 3]) {
        bytes.fill(fill);
        expect((await exported(exporter, bytes)).code).toBe(ExportResultCode.SUCCESS);
      }
      expect(exporter.buffersMade).toBe(1);
      // Two in flight: the second is not written into the first's buffer.
      hold();
      bytes.fill(4);
      const fourth = exported(exporter, bytes);
      bytes.fill(5);
      const fifth = exported(exporter, bytes);
      bytes.fill(6);
      while (sink.received.length < 5) await new Promise((r) => setTimeout(r, 5));
      release();
      expect([(await fourth).code, (await fifth).code]).toEqual([ExportResultCode.SUCCESS, ExportResultCode.SUCCESS]);
      expect(exporter.buffersMade).toBe(2);
      // Both answered: both kept, none made for the next.
      expect((await exported(exporter, bytes)).code).toBe(ExportResultCode.SUCCESS);
      expect(exporter.buffersMade).toBe(2);
      expect(sink.received.map((b) => [b.length, b[0], b.every((x) => x === b[0])])).toEqual(
        [1, 2, 3, 4, 5, 6].map((fill) => [100_000, fill, true]),
      );
    } finally {
      release();
      await exporter.shutdown();
      await sink.close();
    }
  });

  it('fails the batches a stopped thread held, and starts a new thread for the next one', async () => {
    // A thread that takes one message and exits, as a crash would.
    const script = join(mkdtempSync(join(tmpdir(), 'export-thread-')), 'dies.js');
    writeFileSync(script, "require('node:worker_threads').parentPort.once('message', () => process.exit(3));\n");
    const exporter = new ExportThread(script);
    const first = await exported(exporter, Buffer.from('lost'));
    const second = await exported(exporter, Buffer.from('lost too'));
    expect([first.code, first.error?.message]).toEqual([ExportResultCode.FAILED, 'the span export thread stopped (exit code 3)']);
    expect([second.code, second.error?.message]).toEqual([ExportResultCode.FAILED, 'the span export thread stopped (exit code 3)']);
    await exporter.shutdown();
  });

  it('waits at its shutdown for the batch in flight', async () => {
    const { sink, hold, release } = await gatedCollector();
    hold();
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url;
    const exporter = new ExportThread();
    try {
      const result = exported(exporter, Buffer.from('in flight'));
      while (sink.received.length === 0) await new Promise((r) => setTimeout(r, 5));
      let stopped = false;
      const stopping = exporter.shutdown().then(() => (stopped = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect((await result).code).toBe(ExportResultCode.SUCCESS);
    } finally {
      release();
      await sink.close();
    }
  });
});
