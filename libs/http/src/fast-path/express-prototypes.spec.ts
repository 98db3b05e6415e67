import { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Get, type INestApplication, Module, Query, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Express, Request } from 'express';
import request from 'supertest';
import { FastPathAdapter } from './json-answer';

@Controller()
class EchoController {
  @Get('echo')
  echo(@Query('q') q: string, @Req() req: Request) {
    return {
      q,
      path: req.path,
      host: req.hostname,
      isIncoming: req instanceof IncomingMessage,
      isResponse: req.res instanceof ServerResponse,
    };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

describe('fast path "Express\'s prototypes from the start"', () => {
  let app: INestApplication;
  let express: Express;
  const seen: { request: boolean; response: boolean }[] = [];

  beforeAll(async () => {
    app = await NestFactory.create(EchoModule, new FastPathAdapter(), { logger: false });
    express = app.getHttpAdapter().getInstance<Express>();
    // Before Express sees the request: what Node's server made.
    app.getHttpServer().prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      seen.push({ request: Object.getPrototypeOf(req) === express.request, response: Object.getPrototypeOf(res) === express.response });
    });
    await app.init();
  });
  afterAll(() => app.close());

  it("makes requests and responses with the application's prototypes, which Express keeps", async () => {
    const res = await request(app.getHttpServer()).get('/echo?q=%E5%BC%A0').set('Host', 'api.example').expect(200);
    expect(res.body).toEqual({ q: '张', path: '/echo', host: 'api.example', isIncoming: true, isResponse: true });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(seen.at(-1)).toEqual({ request: true, response: true });
  });

  it('answers unknown paths and HEAD as Express does', async () => {
    await request(app.getHttpServer()).get('/nowhere').expect(404);
    const head = await request(app.getHttpServer()).head('/echo?q=a').expect(200);
    expect(head.text).toBeUndefined();
    expect(seen.every((s) => s.request && s.response)).toBe(true);
  });
});
