import { type Server, createServer } from 'node:http';
import { type ExceptionFilter, type NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, RequestHandler, Response } from 'express';
import { type DirectRoute, DirectRoutes, expressClasses } from './direct-routes';

const SENT_BODY = Symbol('sentBody');
type WithBody = Response & { [SENT_BODY]?: unknown };

/** Records `body` as the JSON answered on `res` (for the result-code metrics and accounting lines). */
export function keepSentBody(res: Response, body: unknown): void {
  (res as WithBody)[SENT_BODY] = body;
}

/** The JSON body answered on `res`, if any (the head of a streamed list; the value of a `JsonText`). */
export function sentBody(res: Response): unknown {
  return (res as WithBody)[SENT_BODY];
}

/**
 * A JSON answer serialised once, by whoever made it: `text` is written as it is, `value` is
 * what it encodes (kept as the sent body for the metrics and the accounting line). A service
 * that needs the text anyway (to store it in a cache) returns this instead of the object, so
 * the answer is not serialised a second time.
 */
export class JsonText {
  constructor(
    readonly value: unknown,
    readonly text: string,
  ) {}

  /** `value` serialised with `JSON.stringify`. */
  static of(value: unknown): JsonText {
    return new JsonText(value, JSON.stringify(value));
  }
}

/**
 * True when `res` may be answered by `writeJson` itself: nothing set that Express's
 * `res.json` would treat differently (a Content-Type already chosen, a status without a body,
 * ETags or JSON settings of the application).
 */
function plainJsonAnswer(res: Response, status: number): boolean {
  if (status === 204 || status === 205 || status === 304 || res.hasHeader('Content-Type')) return false;
  const app = res.app;
  return !app || (!app.get('etag fn') && !app.get('json replacer') && !app.get('json spaces') && !app.get('json escape'));
}

/**
 * Fast path "JSON answer writer": answers `body` (an object, or a `JsonText`) as JSON with
 * `status`, in the bytes and headers of Express's `res.json` (`application/json;
 * charset=utf-8`, Content-Length in bytes, HEAD without a body), and keeps it as the sent
 * body. Why: `res.json` → `res.send` parses and rebuilds the Content-Type it has just set and
 * looks the type up again on every answer (4% of a cached lbsQuery's CPU; 20.4 → 13.3 µs per
 * answer in `bench/fast-path.mjs`). Answers that are
 * not plain (see `plainJsonAnswer`) go through Express's `res.json` as before.
 */
export function writeJson(res: Response, status: number, body: unknown): void {
  const text = body instanceof JsonText ? body : undefined;
  const value = text ? text.value : body;
  keepSentBody(res, value);
  res.statusCode = status;
  if (!plainJsonAnswer(res, status)) {
    if (text) res.type('json').send(text.text);
    else res.json(value);
    return;
  }
  const json = text ? text.text : JSON.stringify(value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  if (res.req.method === 'HEAD') res.end();
  else res.end(json);
}

/**
 * Nest's Express adapter with the JSON answer writer in place of `res.json` for what handlers
 * return: `NestFactory.create(module, new FastPathAdapter(), options)`. Nest calls `reply`
 * with every handler's result; objects and `JsonText`s are written by `writeJson`, the rest
 * (nothing, text, files, errors, Buffers) by Express as before. It also keeps the
 * application-wide middleware in its order, for the direct routes (`serveDirect`).
 */
export class FastPathAdapter extends ExpressAdapter {
  private readonly appMiddleware: RequestHandler[] = [];
  private direct?: DirectRoutes;
  /** The application's exception filter (`applyHttpDefaults`), which answers a direct route's errors. */
  errorFilter?: ExceptionFilter;

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (isJsonBody(body)) {
      writeJson(response, statusCode ?? response.statusCode, body);
      return response;
    }
    return super.reply(response, body, statusCode);
  }

  /**
   * The HTTP server, made with Express's request and response prototypes in place
   * (`expressClasses`, fast path "Express's prototypes from the start"); with HTTPS, a 503 while
   * closing or forced closes (options the services do not use), Nest's own server.
   */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    const express = this.getInstance<Express>();
    this.httpServer = createServer(expressClasses(express), express);
  }

  override use(...args: unknown[]): unknown {
    // `app.use(fn)`: middleware of every path, which a direct route runs too.
    if (args.length === 1 && typeof args[0] === 'function') this.appMiddleware.push(args[0] as RequestHandler);
    return (super.use as (...a: unknown[]) => unknown)(...args);
  }

  /**
   * Fast path "direct routes" (`direct-routes.ts`): `routes` are served by the HTTP server's
   * listener, after the middleware added with `app.use` so far (call it after the last one
   * that must apply to them). Once per application, before it listens.
   */
  serveDirect(routes: readonly DirectRoute[]): void {
    if (this.direct) throw new Error('serveDirect: once per application');
    const server = this.getHttpServer() as Server | undefined;
    const express = this.getInstance<Express>();
    if (!server || !server.listeners('request').includes(express))
      throw new Error('serveDirect: the HTTP server is not the one this adapter made');
    this.direct = new DirectRoutes(express, [...this.appMiddleware], routes, (error, req, res) => {
      if (!this.errorFilter) throw new Error('direct routes need the exception filter of applyHttpDefaults');
      this.errorFilter.catch(error, new ExecutionContextHost([req, res]));
    });
    server.removeListener('request', express);
    server.on('request', this.direct.listener);
  }
}

function isJsonBody(body: unknown): boolean {
  if (body instanceof JsonText) return true;
  return (
    typeof body === 'object' &&
    body !== null &&
    !(body instanceof StreamableFile) &&
    !(body instanceof Error) &&
    !ArrayBuffer.isView(body) &&
    !(body instanceof ArrayBuffer)
  );
}
