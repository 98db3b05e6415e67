import { Controller, Get, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request } from 'express';
import request from 'supertest';
import { type EnvelopeStyle, accountEnvelope, lbsEnvelope } from '@geoaccount/api';
import { FastPathAdapter } from './fast-path/json-answer';
import { applyHttpDefaults } from './http-defaults';
import { RateLimitModule, TokenBucketLimiter } from './rate-limit';

describe('TokenBucketLimiter', () => {
  it('allows a burst of perMinute, then refills at perMinute/60 per second', () => {
    let now = 1_000_000;
    const limiter = new TokenBucketLimiter(60, () => now);
    for (let i = 0; i < 60; i++) expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // other keys have their own budget
    expect(limiter.take('b').allowed).toBe(true);
    now += 1000;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    now += 60_000;
    for (let i = 0; i < 60; i++) expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('tells how long to wait', () => {
    const now = 0;
    const limiter = new TokenBucketLimiter(2, () => now);
    limiter.take('a');
    limiter.take('a');
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
  });

  it('refuses a non-positive budget', () => {
    expect(() => new TokenBucketLimiter(0)).toThrow(/positive/);
  });
});

@Controller()
class ThingsController {
  @Get('things')
  things() {
    return { ok: true };
  }
}

/** The key of the tests: the `X-Caller` header (the services pass libs/signing's `callerKeyOf`). */
const byHeader = (req: Request) => req.header('x-caller');

async function boot(perMinute: number, style: EnvelopeStyle = accountEnvelope): Promise<INestApplication> {
  @Module({ imports: [RateLimitModule.forRoot({ perMinute, keyOf: byHeader })], controllers: [ThingsController] })
  class TestModule {}
  const app = await NestFactory.create(TestModule, new FastPathAdapter(), { logger: false });
  applyHttpDefaults(app, style, { shutdownHooks: false });
  await app.init();
  return app;
}

describe('rate limit with an injected key', () => {
  it('answers 429 with the account rate code and Retry-After once a key is over budget; other keys and keyless requests go on', async () => {
    const app = await boot(3);
    try {
      const http = () => request(app.getHttpServer());
      for (let i = 0; i < 3; i++) expect((await http().get('/things').set('X-Caller', 'app-a')).status).toBe(200);
      const limited = await http().get('/things').set('X-Caller', 'app-a');
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ response_code: '90429', response_message: 'too many requests' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await http().get('/things').set('X-Caller', 'app-b')).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await http().get('/things')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers 429 with lbsStat 0 in the location envelope', async () => {
    const app = await boot(1, lbsEnvelope);
    try {
      const http = () => request(app.getHttpServer());
      expect((await http().get('/things').set('X-Caller', 'app-a')).status).toBe(200);
      const limited = await http().get('/things').set('X-Caller', 'app-a');
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ code: '099', resultDesc: 'too many requests', lbsStat: '0' });
    } finally {
      await app.close();
    }
  });

  it('is off when perMinute is 0', async () => {
    const app = await boot(0);
    try {
      for (let i = 0; i < 20; i++) expect((await request(app.getHttpServer()).get('/things').set('X-Caller', 'app-a')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
