import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { API_SECURITY_HEADERS, apiHeaderBlock, securityHeaders } from '../security-headers';
import { recordHeaders, writeHeaderBlock } from './header-block';

/** A response of a request to `url`, as Node makes them, and its headers after `handler`. */
function headersAfter(handler: RequestHandler, url: string): Record<string, unknown> & { order: string[] } {
  const req = new IncomingMessage(new Socket());
  req.url = url;
  req.method = 'GET';
  // Express's `req.path` (a getter of its request prototype).
  Object.defineProperty(req, 'path', { value: url.split('?')[0] });
  const res = new ServerResponse(req);
  res.setHeader('X-Powered-By', 'Express');
  let passed = false;
  handler(req as Request, res as unknown as Response, (() => (passed = true)) as NextFunction);
  expect(passed).toBe(true);
  return { ...res.getHeaders(), order: res.getHeaderNames() };
}

/** What `securityHeaders()` did before the block: `Cache-Control`, then helmet per request. */
function helmetPerRequest(): RequestHandler {
  const api = helmet(API_SECURITY_HEADERS);
  const page = helmet();
  return (req, res, next) => {
    const path = req.url.split('?')[0]!;
    if (path.startsWith('/docs') && !path.startsWith('/docs-json')) return page(req, res, next);
    res.setHeader('Cache-Control', 'no-store');
    return api(req, res, next);
  };
}

describe('fast path "header block"', () => {
  it.each(['/account/v1.0.1/users/u1?timestamp=1', '/lbsapi/api/lbsQuery', '/health/live', '/docs-json', '/docs', '/docs/swagger-ui.css'])(
    'writes the same headers, in the same order, as helmet per request (%s)',
    (url) => {
      const fast = headersAfter(securityHeaders(), url);
      const framework = headersAfter(helmetPerRequest(), url);
      expect(fast).toEqual(framework);
      // The API's headers are really there (the comparison cannot pass on two empty sets).
      if (!url.startsWith('/docs') || url.startsWith('/docs-json')) {
        expect(fast['cache-control']).toBe('no-store');
        expect(fast['x-frame-options']).toBe('DENY');
        expect(fast['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      }
    },
  );

  it('records every header helmet sets, and removals', () => {
    const steps = apiHeaderBlock();
    expect(steps.map(([name]) => name.toLowerCase())).toEqual([
      'cache-control',
      'content-security-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
    ]);
    const removes: RequestHandler = (_req, res, next) => {
      res.removeHeader('X-Powered-By');
      res.setHeader('X-A', ['1', '2']);
      next();
    };
    const recorded = recordHeaders(removes);
    expect(recorded).toEqual([
      ['X-Powered-By', undefined],
      ['X-A', ['1', '2']],
    ]);
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    res.setHeader('X-Powered-By', 'Express');
    writeHeaderBlock(res as unknown as Response, recorded);
    expect(res.getHeaders()).toEqual({ 'x-a': ['1', '2'] });
  });

  it('refuses a middleware that does not pass the request on at once', () => {
    expect(() => recordHeaders((_req, _res, next) => setImmediate(next))).toThrow(/did not pass/);
    expect(() => recordHeaders((_req, _res, next) => next(new Error('no')))).toThrow(/did not pass/);
  });
});
