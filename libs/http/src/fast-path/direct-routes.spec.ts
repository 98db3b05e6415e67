import { Controller, Get, type INestApplication, Module, Param, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { ApiException, CommonCodes, InvalidParameterException, accountEnvelope } from '@geoaccount/api';
import { applyHttpDefaults } from '../http-defaults';
import type { DirectRoute } from './direct-routes';
import { FastPathAdapter, writeJson } from './json-answer';

/** Who answered each request: the controller (through Express and Nest) or the direct route. */
const answeredBy: string[] = [];

/** The same answer both ways: `n` must be digits, `fail` makes the answer throw. */
function answer(query: Record<string, unknown>): Record<string, unknown> {
  if (query.fail === 'api') throw new ApiException(CommonCodes.INVALID_PARAMETER, 'refused later');
  if (query.fail === 'bug') throw new Error('a bug');
  return { response_code: '90000', response_message: 'success', n: query.n, path: 'one' };
}

function checked(query: Record<string, unknown>): Record<string, unknown> {
  if (typeof query.n !== 'string' || !/^\d+$/.test(query.n)) throw new InvalidParameterException('n');
  return query;
}

@Controller('things')
class ThingsController {
  @Get('one')
  one(@Query() query: Record<string, unknown>) {
    answeredBy.push('nest');
    return answer(checked(query));
  }

  @Get('item/:id/part/:part')
  item(@Param('id') id: string, @Param('part') part: string) {
    answeredBy.push('nest');
    return { response_code: '90000', response_message: 'success', id, part };
  }
}

/** A route with path parameters: what the router's `req.params` holds, answered as the controller does. */
const directItem: DirectRoute<Record<string, string>> = {
  path: '/things/item/:id/part/:part',
  admit: (req) => ({ ...(req.params as Record<string, string>) }),
  async serve(_req, res, params) {
    answeredBy.push('direct');
    writeJson(res, 200, { response_code: '90000', response_message: 'success', id: params.id, part: params.part });
  },
};

const direct: DirectRoute<Record<string, unknown>> = {
  path: '/things/one',
  admit(req) {
    try {
      return checked(req.query as Record<string, unknown>);
    } catch {
      return undefined;
    }
  },
  async serve(_req, res, query) {
    answeredBy.push('direct');
    await Promise.resolve();
    writeJson(res, 200, answer(query));
  },
};

/** Middleware that leaves a trace on the answer: a header with its name, in the order run. */
const mark =
  (name: string) =>
  (req: Request, res: Response, next: NextFunction): void => {
    const before = res.getHeader('X-Steps');
    res.setHeader('X-Steps', before ? `${String(before)},${name}` : name);
    // What Express gives a routed request, as the application's middleware reads it.
    res.setHeader(`X-${name}-Query`, encodeURIComponent(JSON.stringify(req.query)));
    res.setHeader(`X-${name}-Fields`, `${req.originalUrl} ${req.baseUrl === '' ? 'top' : req.baseUrl} ${req.path} ${typeof res.status}`);
    next();
  };

async function boot(withDirect: boolean): Promise<INestApplication> {
  @Module({ controllers: [ThingsController] })
  class TestModule {}
  const app = await NestFactory.create(TestModule, new FastPathAdapter(), { logger: false, bodyParser: false });
  applyHttpDefaults(app, accountEnvelope, { shutdownHooks: false, validationPipe: false });
  app.use(mark('first'));
  app.use(mark('second'));
  if (withDirect) (app.getHttpAdapter() as FastPathAdapter).serveDirect([direct, directItem]);
  app.use(mark('after'));
  await app.init();
  return app;
}

/** Status, headers (but the date; an error id's form, not its value) and body of an answer. */
async function seen(app: INestApplication, method: 'get' | 'head' | 'post', url: string) {
  const res = await request(app.getHttpServer())[method](url);
  const { date: _date, ...headers } = res.headers as Record<string, string>;
  if (headers['x-error-id'] !== undefined)
    headers['x-error-id'] = /^[0-9a-f-]{36}$/.test(headers['x-error-id']) ? 'uuid' : headers['x-error-id'];
  return { status: res.status, headers, body: res.text };
}

describe('direct routes (FastPathAdapter.serveDirect)', () => {
  let framework: INestApplication;
  let fast: INestApplication;
  beforeAll(async () => {
    framework = await boot(false);
    fast = await boot(true);
  });
  afterAll(async () => {
    await framework.close();
    await fast.close();
  });
  beforeEach(() => {
    answeredBy.length = 0;
  });

  it('answers an admitted request itself, with the bytes and headers Express and Nest answer', async () => {
    const url = '/things/one?n=42&x=a%20b&y=%E5%8C%97%E4%BA%AC&z=&w=1+2&e&%zz=%';
    const expected = await seen(framework, 'get', url);
    const got = await seen(fast, 'get', url);
    expect(answeredBy).toEqual(['nest', 'direct']);
    expect(expected.status).toBe(200);
    // The middleware added after serveDirect does not apply to the direct route.
    const { 'x-after-query': _q, 'x-after-fields': _f, ...before } = expected.headers;
    expect(got).toEqual({ ...expected, headers: { ...before, 'x-steps': 'first,second' } });
    expect(JSON.parse(decodeURIComponent(got.headers['x-first-query']!))).toEqual({
      n: '42',
      x: 'a b',
      y: '北京',
      z: '',
      w: '1 2',
      e: '',
      '%zz': '%',
    });
    expect(got.headers['x-first-fields']).toBe(`${url} top /things/one function`);
  });

  it("gets requests from the server with Express's prototypes already: a direct answer changes none", async () => {
    const setPrototypeOf = jest.spyOn(Object, 'setPrototypeOf');
    try {
      answeredBy.length = 0;
      const got = await seen(fast, 'get', '/things/one?n=7');
      expect([got.status, answeredBy]).toEqual([200, ['direct']]);
      expect(setPrototypeOf).not.toHaveBeenCalled();
      // The router still sets its own on what it routes (app.handle), as before.
      await seen(fast, 'get', '/things/one/?n=7');
      expect(setPrototypeOf).toHaveBeenCalled();
    } finally {
      setPrototypeOf.mockRestore();
    }
  });

  it('leaves a request it would refuse to the framework, which answers the refusal', async () => {
    for (const url of ['/things/one?n=x', '/things/one', '/things/one?n=1&n=2']) {
      answeredBy.length = 0;
      const expected = await seen(framework, 'get', url);
      const got = await seen(fast, 'get', url);
      expect(answeredBy).toEqual(['nest', 'nest']);
      expect(got).toEqual(expected);
      expect(got.status).toBe(400);
    }
  });

  it('serves only GET of the exact path: other methods and spellings go through the router, as before', async () => {
    const cases: Array<['get' | 'head' | 'post', string]> = [
      ['head', '/things/one?n=1'],
      ['post', '/things/one?n=1'],
      ['get', '/things/one/?n=1'],
      ['get', '/Things/One?n=1'],
      ['get', '/things/one/more?n=1'],
    ];
    for (const [method, url] of cases) {
      answeredBy.length = 0;
      const expected = await seen(framework, method, url);
      const got = await seen(fast, method, url);
      expect(got).toEqual(expected);
      expect(answeredBy.filter((by) => by === 'direct')).toEqual([]);
    }
  });

  it('fills path parameters as the router does (percent-decoded), and leaves other shapes to it', async () => {
    const served = ['/things/item/42/part/a', '/things/item/%E5%8C%97%E4%BA%AC/part/a%2Fb%20c', '/things/item/x/part/y?n=1'];
    for (const url of served) {
      answeredBy.length = 0;
      const expected = await seen(framework, 'get', url);
      const got = await seen(fast, 'get', url);
      expect([url, answeredBy]).toEqual([url, ['nest', 'direct']]);
      const { 'x-after-query': _q, 'x-after-fields': _f, ...before } = expected.headers;
      expect(got).toEqual({ ...expected, headers: { ...before, 'x-steps': 'first,second' } });
    }
    expect(JSON.parse((await seen(fast, 'get', served[1]!)).body)).toMatchObject({ id: '北京', part: 'a/b c' });
    const routed = [
      '/things/item//part/a',
      '/things/item/1/part/',
      '/things/item/1/part/2/',
      '/things/item/1/Part/2',
      '/things/item/%E0%A4%A/part/2',
      '/things/item/1/part/2/3',
    ];
    for (const url of routed) {
      answeredBy.length = 0;
      const expected = await seen(framework, 'get', url);
      const got = await seen(fast, 'get', url);
      expect([url, got]).toEqual([url, expected]);
      expect([url, answeredBy.filter((by) => by === 'direct')]).toEqual([url, []]);
    }
  });

  it("sends what the answer throws to the application's exception filter, as Nest would", async () => {
    for (const url of ['/things/one?n=1&fail=api', '/things/one?n=1&fail=bug']) {
      answeredBy.length = 0;
      const expected = await seen(framework, 'get', url);
      const got = await seen(fast, 'get', url);
      expect(answeredBy).toEqual(['nest', 'direct']);
      const { 'x-after-query': _q, 'x-after-fields': _f, ...before } = expected.headers;
      expect(got).toEqual({ ...expected, headers: { ...before, 'x-steps': 'first,second' } });
      expect(got.status).toBeGreaterThanOrEqual(400);
    }
  });

  it('is set up once per application, on the server the adapter made, with valid paths', async () => {
    const adapter = fast.getHttpAdapter() as FastPathAdapter;
    expect(() => adapter.serveDirect([])).toThrow(/once/);
    const other = await NestFactory.create(
      (() => {
        @Module({})
        class Empty {}
        return Empty;
      })(),
      new FastPathAdapter(),
      { logger: false },
    );
    try {
      const otherAdapter = other.getHttpAdapter() as FastPathAdapter;
      expect(() => otherAdapter.serveDirect([{ ...direct, path: 'things/one' }])).toThrow(/absolute path/);
      expect(() => otherAdapter.serveDirect([{ ...direct, path: '/things/:id-x' }])).toThrow(/whole segment/);
    } finally {
      await other.close();
    }
  });
});
