import { Body, Controller, Get, type MiddlewareConsumer, Module, type NestModule, Post, Put, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import request from 'supertest';
import {
  ApiException,
  type EnvelopeStyle,
  FORM_BODY_OPTIONS,
  FormBodyMiddleware,
  accountEnvelope,
  lbsEnvelope,
  resultCode,
} from '@geoaccount/api';
import { FastPathAdapter } from './fast-path/json-answer';
import { applyHttpDefaults } from './http-defaults';

class ThingDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(8)
  name!: string;

  @IsOptional()
  @IsIn(['0', '1'])
  state?: string;
}

@Controller('things')
class ThingsController {
  @Post()
  create(@Body() dto: ThingDto) {
    return { got: dto };
  }

  @Put('conflict')
  conflict(): never {
    throw new ApiException(resultCode('10010', 409, 'auth id already exists'));
  }

  @Get()
  list(@Query() dto: ThingDto) {
    return { got: dto };
  }

  @Get('boom')
  boom(): never {
    throw new Error('secret internal detail');
  }

  @Get('db-down')
  dbDown(): never {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  }
}

function moduleFor(style: EnvelopeStyle) {
  @Module({ controllers: [ThingsController], providers: [{ provide: FORM_BODY_OPTIONS, useValue: { limitBytes: 1024, style } }] })
  class TestModule implements NestModule {
    configure(consumer: MiddlewareConsumer) {
      consumer.apply(FormBodyMiddleware).forRoutes('*');
    }
  }
  return TestModule;
}

async function boot(style: EnvelopeStyle): Promise<INestApplication> {
  const app = await NestFactory.create(moduleFor(style), new FastPathAdapter(), { bodyParser: false, logger: false });
  applyHttpDefaults(app, style);
  await app.init();
  return app;
}

describe('HTTP defaults with the account envelope', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await boot(accountEnvelope);
  });
  afterAll(() => app.close());
  const http = () => request(app.getHttpServer());

  it('parses urlencoded and multipart fields through one DTO path', async () => {
    const a = await http().post('/things').type('form').send({ name: 'abc', state: '1', timestamp: '1' });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ got: { name: 'abc', state: '1' } });
    const b = await http().post('/things').field('name', 'abc').field('state', '0');
    expect(b.status).toBe(201);
    expect(b.body).toEqual({ got: { name: 'abc', state: '0' } });
    const c = await http().get('/things').query({ name: 'q' });
    expect(c.body).toEqual({ got: { name: 'q' } });
  });

  it('refuses an unknown field, naming it (90100)', async () => {
    const res = await http().post('/things').type('form').send({ name: 'abc', extra: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ response_code: '90100', response_message: 'unknown field extra' });
  });

  it('names the field of a validation error (90100)', async () => {
    const long = await http()
      .post('/things')
      .type('form')
      .send({ name: 'x'.repeat(9) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ response_code: '90100', response_message: 'too long name' });
    const missing = await http().post('/things').type('form').send({});
    expect(missing.body).toEqual({ response_code: '90100', response_message: 'missing name' });
    const bad = await http().post('/things').type('form').send({ name: 'a', state: '2' });
    expect(bad.body).toEqual({ response_code: '90100', response_message: 'bad value of state' });
  });

  it('renders an ApiException with its code and status', async () => {
    const res = await http().put('/things/conflict');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ response_code: '10010', response_message: 'auth id already exists' });
  });

  it('maps unknown routes to 404/90404 and wrong methods to 405/90405', async () => {
    const none = await http().get('/nowhere');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ response_code: '90404', response_message: 'no such interface' });
    const method = await http().delete('/things');
    expect(method.status).toBe(405);
    expect(method.body).toEqual({ response_code: '90405', response_message: 'method not allowed' });
  });

  it('maps a body over the limit to 413/90413, for both encodings', async () => {
    const big = await http()
      .post('/things')
      .type('form')
      .send({ name: 'x'.repeat(4000) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ response_code: '90413', response_message: 'request body too large' });
    const multi = await http().post('/things').field('name', 'x'.repeat(4000));
    expect(multi.status).toBe(413);
    expect(multi.body.response_code).toBe('90413');
  });

  it('maps malformed bodies and files to 400/90100', async () => {
    const broken = await http()
      .post('/things')
      .set('Content-Type', 'multipart/form-data; boundary=XYZ')
      .send('--XYZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nabc');
    expect(broken.status).toBe(400);
    expect(broken.body.response_code).toBe('90100');
    const file = await http().post('/things').attach('name', Buffer.from('abc'), 'a.txt');
    expect(file.status).toBe(400);
    expect(file.body.response_code).toBe('90100');
  });

  it('refuses a repeated parameter', async () => {
    const res = await http().get('/things?name=a&name=b');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ response_code: '90100', response_message: 'invalid name' });
  });

  it('hides unexpected failures behind "system exception"', async () => {
    const res = await http().get('/things/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ response_code: '90099', response_message: 'system exception' });
    expect(JSON.stringify(res.body)).not.toContain('secret');
    expect(res.headers['x-error-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await http().get('/things/boom')).headers['x-error-id']).not.toBe(res.headers['x-error-id']);
    const down = await http().get('/things/db-down');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ response_code: '90099', response_message: 'system exception' });
  });
});

describe('HTTP defaults with the location envelope', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await boot(lbsEnvelope);
  });
  afterAll(() => app.close());

  it('answers failures with code, resultDesc and lbsStat 0', async () => {
    const res = await request(app.getHttpServer()).get('/things');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: '099', resultDesc: 'missing name', lbsStat: '0' });
    const none = await request(app.getHttpServer()).get('/nowhere');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ code: '099', resultDesc: 'no such operation', lbsStat: '0' });
  });
});
