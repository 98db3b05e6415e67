import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { type AccountFixture, accountOnFreshDatabase } from '../src/account-fixture';
import { figure } from '../src/figures';
import { stopAllServices } from '../src/service-process';

/** Resident set size of a process, from `/proc/<pid>/status`. */
function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) * 1024;
}

interface Upload {
  status: number;
  code: unknown;
  /** Bytes of the body written when the answer arrived. */
  sentBeforeAnswer: number;
  /** The whole body had been written when the answer arrived. */
  finished: boolean;
}

/**
 * POSTs a multipart body with `Transfer-Encoding: chunked` (no Content-Length): `fields`
 * fields of `fieldBytes` each, written as the server takes them, until the answer arrives or
 * all is written. The server may close the connection once it has answered.
 */
function chunkedMultipart(baseUrl: string, path: string, fields: number, fieldBytes: number): Promise<Upload> {
  const boundary = 'reliabilityBoundary7f3a';
  const value = 'x'.repeat(fieldBytes);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let finished = false;
    let answered = false;
    const url = new URL(path, baseUrl);
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path: url.pathname,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' },
    });
    req.on('response', (res) => {
      answered = true;
      const at = { status: res.statusCode ?? 0, sentBeforeAnswer: sent, finished };
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let code: unknown;
        try {
          code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>).response_code;
        } catch {
          code = undefined;
        }
        resolve({ ...at, code });
      });
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (answered) return;
      // The service answered 413 and closed the connection while this client was still
      // writing: the write can fail (EPIPE, ECONNRESET) before the answer is read. The upload
      // was refused all the same, without being read.
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE' || code === 'ECONNRESET') setTimeout(() => resolve({ status: 0, code: 'closed by the service', sentBeforeAnswer: sent, finished }), 200);
      else reject(err);
    });
    const write = (chunk: string): Promise<void> =>
      new Promise((done) => {
        sent += Buffer.byteLength(chunk);
        if (req.write(chunk)) setImmediate(done);
        else req.once('drain', done);
      });
    void (async () => {
      for (let i = 0; i < fields && !answered && !req.destroyed; i++) {
        await write(`--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n${value}\r\n`);
      }
      if (!answered && !req.destroyed) {
        finished = true;
        req.end(`--${boundary}--\r\n`);
      }
    })();
  });
}

describe('request body limits (account)', () => {
  let f: AccountFixture;

  beforeAll(async () => {
    // A process of its own: its memory is what is measured.
    f = await accountOnFreshDatabase('account-body-limits');
  });
  afterAll(async () => {
    await f?.close();
    await stopAllServices();
  });

  it('10 concurrent chunked multipart uploads of 9 MB are refused early (413, 90413) and leave the memory as it was', async () => {
    const pid = f.svc.child.pid!;
    // Warm up the paths a refused upload takes, then measure from a settled process.
    await chunkedMultipart(f.svc.baseUrl, '/account/v1.0.1/auths/BL1', 2, 60_000);
    await new Promise((r) => setTimeout(r, 500));
    const before = rssBytes(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes(pid));
    }, 20);
    // 144 fields of 64,000 bytes: each under BODY_LIMIT (64kb), fewer than 200 of them, 9.2 MB in all.
    let answers: Upload[];
    try {
      answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => chunkedMultipart(f.svc.baseUrl, `/account/v1.0.1/auths/BL${i}`, 144, 64_000)),
      );
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      clearInterval(sampler);
    }
    const after = rssBytes(pid);
    peak = Math.max(peak, after);
    const mb = (n: number) => n / (1024 * 1024);
    const maxSent = Math.max(...answers.map((a) => a.sentBeforeAnswer));
    figure(
      'body-limits',
      '10 chunked multipart uploads of 9.2 MB: answers',
      [...new Set(answers.map((a) => `${a.status}/${String(a.code)}`))].join(', '),
      '',
      '413/90413',
    );
    figure('body-limits', 'most bytes one upload had sent when answered', maxSent, 'bytes', '< 4 MB');
    figure('body-limits', 'RSS growth during the uploads (peak - before)', mb(peak - before), 'MB', '< 40 MB');
    // Each upload is refused before its end: 413/90413, or (when the client's write loses the
    // race with the close that follows the answer) its connection closed by the service.
    for (const a of answers) {
      expect([`${a.status}/${String(a.code)}`, a.finished]).toEqual([expect.stringMatching(/^(413\/90413|0\/closed by the service)$/), false]);
    }
    expect(answers.filter((a) => a.status === 413).length).toBeGreaterThan(0);
    // What the client had handed to its socket: the server read at most BODY_LIMIT of it; the
    // rest sat in the loopback's socket buffers.
    expect(maxSent).toBeLessThan(4 * 1024 * 1024);
    expect(mb(peak - before)).toBeLessThan(40);
    expect(f.svc.alive).toBe(true);
    // The service still answers normally afterwards.
    expect(await f.a.createAuth('BL-OK', { auth_name: 'after the uploads' })).toMatchObject({
      status: 201,
      body: { response_code: '90000' },
    });
  });
});
