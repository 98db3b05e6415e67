import request from 'supertest';
import { lbsEnvelope } from '@geoaccount/api';
import { DEMO_APP } from '@geoaccount/signing';
import { createFixtureApp, signedFields } from '../test/fixture-app';
import { TokenBucketLimiter, callerKeyOf } from './rate-limit';

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

  it('keys by the claimed app when no signature was verified', () => {
    expect(callerKeyOf({ query: { userToken: 'app-1' } } as never)).toBe('app-1');
    expect(callerKeyOf({ query: {}, body: { app_token: 'app-2' } } as never)).toBe('app-2');
    expect(callerKeyOf({ query: {} } as never)).toBeUndefined();
  });
});

describe('per-app rate limit', () => {
  it('answers 429 with the account rate code and Retry-After once the app is over budget, and never limits probes', async () => {
    const fixture = await createFixtureApp({ rateLimitPerMinute: 3 });
    try {
      const http = () => request(fixture.app.getHttpServer());
      for (let i = 0; i < 3; i++) {
        const ok = await http()
          .get('/things/t')
          .query(signedFields('GET', '/things/t', {}, { thing_id: 't' }));
        expect(ok.status).toBe(200);
      }
      const limited = await http()
        .get('/things/t')
        .query(signedFields('GET', '/things/t', {}, { thing_id: 't' }));
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ response_code: '90429', response_message: 'too many requests' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // a request with a bad signature is refused by the guard before it costs the app anything
      const forged = await http().get('/things/t').query({ app_token: DEMO_APP.appToken, signature: '00', timestamp: '1' });
      expect(forged.status).toBe(401);
      // unsigned routes are not limited
      for (let i = 0; i < 5; i++) expect((await http().get('/metrics')).status).toBe(200);
      const metrics = (await http().get('/metrics')).text;
      expect(metrics).toMatch(/api_results_total\{route="\/things\/:thing_id",status_code="429",code="90429",service="fixture"\} 1/);
    } finally {
      await fixture.app.close();
    }
  });

  it('answers 429 with lbsStat 0 in the location envelope', async () => {
    const fixture = await createFixtureApp({ rateLimitPerMinute: 1, style: lbsEnvelope });
    try {
      const http = () => request(fixture.app.getHttpServer());
      expect(
        (
          await http()
            .get('/things/t')
            .query(signedFields('GET', '/things/t', {}, { thing_id: 't' }))
        ).status,
      ).toBe(200);
      const limited = await http()
        .get('/things/t')
        .query(signedFields('GET', '/things/t', {}, { thing_id: 't' }));
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ code: '099', resultDesc: 'too many requests', lbsStat: '0' });
    } finally {
      await fixture.app.close();
    }
  });

  it('is off when RATE_LIMIT_PER_MINUTE is 0', async () => {
    const fixture = await createFixtureApp({ rateLimitPerMinute: 0 });
    try {
      for (let i = 0; i < 20; i++) {
        const res = await request(fixture.app.getHttpServer())
          .get('/things/t')
          .query(signedFields('GET', '/things/t', {}, { thing_id: 't' }));
        expect(res.status).toBe(200);
      }
    } finally {
      await fixture.app.close();
    }
  });
});
