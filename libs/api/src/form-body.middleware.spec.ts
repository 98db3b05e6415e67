import {
  Body,
  Controller,
  Delete,
  Get,
  type INestApplication,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  Post,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accountEnvelope } from './envelope';
import { FORM_BODY_OPTIONS, FormBodyMiddleware } from './form-body.middleware';
import { ApiExceptionFilter } from './exception-filter';

const LIMIT = 4096;

@Controller('echo')
class EchoController {
  /** Answers the fields it received, as the handler of a signed route would see them. */
  @Get()
  read(@Body() body: Record<string, unknown> | undefined) {
    return { read: true, body: body ?? null };
  }

  @Delete()
  remove(@Body() body: Record<string, unknown> | undefined) {
    return { removed: true, body: body ?? null };
  }

  @Post()
  echo(@Body() body: Record<string, unknown> | undefined) {
    return { fields: body === undefined ? null : Object.keys(body).length, body: body ?? null };
  }
}

@Module({
  controllers: [EchoController],
  providers: [{ provide: FORM_BODY_OPTIONS, useValue: { limitBytes: LIMIT, style: accountEnvelope } }],
})
class EchoModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(FormBodyMiddleware).forRoutes('*');
  }
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** Bytes of the body written when the answer arrived. */
  sentBeforeAnswer: number;
  /** The client had written its whole body when the answer arrived. */
  finished: boolean;
}

/**
 * POSTs `body` (or `total` bytes of it, `Transfer-Encoding: chunked`, in pieces of `piece`),
 * writing until the answer arrives or everything is sent; the server may close the connection
 * once it has answered.
 */
function upload(
  port: number,
  headers: Record<string, string>,
  body: Buffer | { head: string; piece: Buffer; total: number },
  method = 'POST',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let finished = false;
    let answered: Omit<Answer, 'body'> | undefined;
    const req = httpRequest({ host: '127.0.0.1', port, method, path: '/echo', headers });
    req.on('response', (res) => {
      answered = { status: res.statusCode ?? 0, sentBeforeAnswer: sent, finished };
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ ...answered!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (Buffer.isBuffer(body)) {
      sent = body.length;
      finished = true;
      req.end(body);
      return;
    }
    const write = (chunk: Buffer | string): Promise<void> =>
      new Promise((done) => {
        sent += Buffer.byteLength(chunk);
        if (req.write(chunk)) setImmediate(done);
        else req.once('drain', done);
      });
    void (async () => {
      await write(body.head);
      while (sent < body.total && !answered && !req.destroyed) {
        await write(body.piece);
        // Let the server read and answer between pieces, as a real network would.
        await new Promise((r) => setTimeout(r, 1));
      }
      if (!answered && !req.destroyed) {
        finished = true;
        req.end();
      }
    })();
  });
}

const TOO_LARGE = { response_code: '90413', response_message: 'request body too large' };

describe('FormBodyMiddleware: body limits on the stream', () => {
  let app: INestApplication;
  let port: number;

  beforeAll(async () => {
    app = await NestFactory.create(EchoModule, { bodyParser: false, logger: false });
    // Only the envelope filter (answers written by Express here; the services write them with
    // libs/http's fast path), no validation pipe: the handler answers the raw fields the middleware parsed.
    app.useGlobalFilters(
      new ApiExceptionFilter(accountEnvelope, {
        writeJson: (res, status, body) => void res.status(status).json(body),
        servedWithOtherMethod: () => false,
      }),
    );
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  const boundary = 'XyZ0123';
  const multipartField = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const multipart = { 'Content-Type': `multipart/form-data; boundary=${boundary}` };
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const json = { 'Content-Type': 'application/json' };

  it("reads no body of a read (GET): not parsed, not refused, whatever its size or type; a DELETE's is", async () => {
    // A GET's or DELETE's body is framed only by a Content-Length the client gives (Node's client adds none).
    const small = await upload(port, { ...form, 'Content-Length': '3' }, Buffer.from('a=1'), 'GET');
    expect([small.status, small.body]).toEqual([200, { read: true, body: null }]);
    const big = Buffer.alloc(LIMIT * 4, 'a');
    const read = await upload(port, { 'Content-Type': 'text/plain', 'Content-Length': String(big.length) }, big, 'GET');
    expect([read.status, read.body]).toEqual([200, { read: true, body: null }]);
    const removed = await upload(port, { ...form, 'Content-Length': '3' }, Buffer.from('a=1'), 'DELETE');
    expect([removed.status, removed.body]).toEqual([200, { removed: true, body: { a: '1' } }]);
    const refused = await upload(port, { 'Content-Type': 'text/plain', 'Content-Length': '3' }, Buffer.from('a=1'), 'DELETE');
    expect(refused.status).toBe(415);
  });

  it('accepts each content type below the limit', async () => {
    const a = await upload(port, form, Buffer.from('name=abc&state=1'));
    expect(a).toMatchObject({ status: 201, body: { fields: 2, body: { name: 'abc', state: '1' } } });
    const b = await upload(port, multipart, Buffer.from(`${multipartField('name', 'abc')}--${boundary}--\r\n`));
    expect(b).toMatchObject({ status: 201, body: { fields: 1, body: { name: 'abc' } } });
    const c = await upload(port, json, Buffer.from('{"name":"abc","state":"1"}'));
    expect(c).toMatchObject({ status: 201, body: { fields: 2, body: { name: 'abc', state: '1' } } });
    const none = await upload(port, {}, Buffer.alloc(0));
    expect(none).toMatchObject({ status: 201, body: { fields: null } });
  });

  it('refuses a chunked multipart body of many small fields once it passes the limit (413, 90413)', async () => {
    // Each field is far below the limit and there are fewer than 200: only the byte count stops it.
    const fields = Array.from({ length: 150 }, (_, i) => multipartField(`f${i}`, 'x'.repeat(1000))).join('');
    const res = await upload(port, { ...multipart, 'Transfer-Encoding': 'chunked' }, Buffer.from(`${fields}--${boundary}--\r\n`));
    expect(res.status).toBe(413);
    expect(res.body).toEqual(TOO_LARGE);
  });

  it.each([
    ['multipart', multipart, `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n`, 'x'],
    ['urlencoded', form, 'name=', 'x'],
    ['JSON', json, '{"name":"', 'x'],
  ])('answers a never-ending chunked %s upload with 413 while it is still being sent', async (_, headers, head, letter) => {
    const piece = Buffer.from(letter.repeat(1024));
    const res = await upload(port, headers, { head, piece, total: 8 * 1024 * 1024 });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(TOO_LARGE);
    expect(res.finished).toBe(false);
    // The answer comes within a few pieces of the limit, not after megabytes.
    expect(res.sentBeforeAnswer).toBeLessThan(LIMIT + 64 * 1024);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const res = await upload(
      port,
      { ...form, 'Content-Length': String(LIMIT + 1) },
      {
        head: 'name=',
        piece: Buffer.from('x'.repeat(512)),
        total: LIMIT + 1,
      },
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual(TOO_LARGE);
    expect(res.finished).toBe(false);
  });

  it('refuses more than 200 fields (413, 90413), urlencoded and multipart', async () => {
    const many = Array.from({ length: 201 }, (_, i) => `f${i}=`).join('&');
    const a = await upload(port, form, Buffer.from(many));
    expect(a.status).toBe(413);
    expect(a.body).toEqual(TOO_LARGE);
    const parts = Array.from({ length: 201 }, (_, i) => multipartField(`f${i}`, '')).join('');
    const b = await upload(port, multipart, Buffer.from(`${parts}--${boundary}--\r\n`));
    expect(b.status).toBe(413);
    expect(b.body).toEqual(TOO_LARGE);
    const fields = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, '']));
    const c = await upload(port, json, Buffer.from(JSON.stringify(fields)));
    expect(c.status).toBe(413);
    expect(c.body).toEqual(TOO_LARGE);
    const ok = await upload(port, form, Buffer.from(Array.from({ length: 200 }, (_, i) => `f${i}=`).join('&')));
    expect(ok).toMatchObject({ status: 201, body: { fields: 200 } });
  });

  it('refuses another content type or a compressed body (415, 90415) without reading it', async () => {
    const unsupported = { response_code: '90415', response_message: 'unsupported media type' };
    const cases: Record<string, string>[] = [{ 'Content-Type': 'text/plain' }, {}, { ...form, 'Content-Encoding': 'gzip' }];
    for (const headers of cases) {
      const res = await upload(port, headers, { head: 'name=', piece: Buffer.from('x'.repeat(1024)), total: 8 * 1024 * 1024 });
      expect({ headers, status: res.status, body: res.body, finished: res.finished }).toEqual({
        headers,
        status: 415,
        body: unsupported,
        finished: false,
      });
    }
  });

  it('takes a JSON body only as an object of string values (400, 90100 otherwise)', async () => {
    const number = await upload(port, json, Buffer.from('{"name":"a","state":1}'));
    expect(number).toMatchObject({ status: 400, body: { response_code: '90100', response_message: 'invalid state' } });
    for (const text of ['["a"]', '"a"', 'null', '{"name":', '{"a":{"b":"c"}}']) {
      const res = await upload(port, json, Buffer.from(text));
      expect({ text, status: res.status, code: res.body.response_code }).toEqual({ text, status: 400, code: '90100' });
    }
  });
});
