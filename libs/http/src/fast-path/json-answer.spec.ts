import { Controller, Get, type INestApplication, Module, Param, Res, StreamableFile } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Response } from 'express';
import request from 'supertest';
import { accountEnvelope } from '@geoaccount/api';
import { applyHttpDefaults } from '../http-defaults';
import { FastPathAdapter, JsonText, sentBody } from './json-answer';

const seen: unknown[] = [];

@Controller()
class AnswersController {
  @Get('things/:id')
  thing(@Param('id') id: string) {
    return { response_code: '90000', response_message: 'success', thing_id: id };
  }

  @Get('text')
  text() {
    return JsonText.of({ response_code: '90000', pre: '已序列化' });
  }

  @Get('typed')
  typed(@Res({ passthrough: true }) res: Response) {
    res.type('application/problem+json');
    return { kind: 'problem' };
  }

  @Get('plain')
  plain() {
    return 'just text';
  }

  @Get('file')
  file() {
    return new StreamableFile(Buffer.from('bytes'));
  }
}

async function boot(): Promise<INestApplication> {
  @Module({ controllers: [AnswersController] })
  class TestModule {}
  const app = await NestFactory.create(TestModule, new FastPathAdapter(), { logger: false });
  applyHttpDefaults(app, accountEnvelope, { shutdownHooks: false });
  app.use((_req: unknown, res: Response, next: () => void) => {
    res.once('finish', () => seen.push(sentBody(res)));
    next();
  });
  await app.init();
  return app;
}

describe('JSON answers (FastPathAdapter, writeJson)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await boot();
  });
  afterAll(() => app.close());
  const http = () => request(app.getHttpServer());

  it('are written as Express writes them: type with charset, length in bytes; the body is kept as the sent body', async () => {
    seen.length = 0;
    const res = await http().get(`/things/${encodeURIComponent('用户🚀')}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe(JSON.stringify({ response_code: '90000', response_message: 'success', thing_id: '用户🚀' }));
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(seen).toEqual([{ response_code: '90000', response_message: 'success', thing_id: '用户🚀' }]);
  });

  it('answer HEAD with the headers of GET and no body', async () => {
    const get = await http().get('/things/a');
    const head = await http().head('/things/a');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.text ?? '').toBe('');
  });

  it('write a JsonText as it is, keeping its value as the sent body', async () => {
    seen.length = 0;
    const res = await http().get('/text');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe('{"response_code":"90000","pre":"已序列化"}');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(seen).toEqual([{ response_code: '90000', pre: '已序列化' }]);
  });

  it('carry the error envelopes of the exception filter too', async () => {
    const res = await http().get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.body).toEqual({ response_code: '90404', response_message: 'no such interface' });
  });

  it('leave the other answers to Express: a type already set, text, files', async () => {
    const typed = await http().get('/typed');
    expect(typed.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(JSON.parse(typed.text)).toEqual({ kind: 'problem' });
    const plain = await http().get('/plain');
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(plain.text).toBe('just text');
    const file = await http().get('/file');
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(Buffer.from(file.body as Buffer).toString()).toBe('bytes');
  });

  it('need the fast-path adapter: applyHttpDefaults refuses an application created without it', async () => {
    @Module({ controllers: [AnswersController] })
    class PlainModule {}
    const plain = await NestFactory.create(PlainModule, { logger: false });
    try {
      expect(() => applyHttpDefaults(plain, accountEnvelope)).toThrow(/FastPathAdapter/);
    } finally {
      await plain.close();
    }
  });
});
