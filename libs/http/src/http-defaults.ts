import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ApiExceptionFilter, type EnvelopeStyle, type ValidationPipeOptions, createValidationPipe } from '@geoaccount/api';
import { FastPathAdapter, writeJson } from './fast-path/json-answer';
import { useQueryParsedOnce } from './fast-path/query';
import { servedWithOtherMethod } from './fast-path/router-methods';

export interface HttpDefaultsOptions {
  /**
   * Let Nest close the application on SIGTERM/SIGINT (default). Turn it off when the
   * process installs its own graceful shutdown (drain first, then close).
   */
  shutdownHooks?: boolean;
  /**
   * The global validation pipe for DTO classes (default on). A service whose handlers check
   * every parameter with pipes of their own can leave it off: it still runs, asynchronously,
   * for every argument of every handler. An object: on, with these options (e.g. the service's
   * path-id fields that a body or query may repeat).
   */
  validationPipe?: boolean | ValidationPipeOptions;
  /** Timeouts of the HTTP server against slow clients; absent: Node's defaults (60 s headers, 300 s request). */
  timeouts?: HttpTimeouts;
}

/** The HTTP server's limits on slow clients, in milliseconds. */
export interface HttpTimeouts {
  /** To receive a request's headers (`headersTimeout`); then 408 and the connection is closed. */
  headersMs: number;
  /** To receive a whole request, headers and body (`requestTimeout`); then 408 and close. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this (`keepAliveTimeout`). */
  keepAliveMs: number;
}

/**
 * The HTTP defaults both services share: the envelope filter for every error (its answers
 * written by the fast path's `writeJson`, 405 told from 404 by the router's method table), the
 * validation pipe, no `X-Powered-By`, no ETags, the plain query parser (a repeated parameter
 * becomes an array and is refused) run once per request, and shutdown hooks so adapters close
 * their connections. The application must be created on the fast path's adapter
 * (`NestFactory.create(module, new FastPathAdapter(), …)`), which writes the handlers' JSON.
 */
export function applyHttpDefaults(app: INestApplication, style: EnvelopeStyle, options: HttpDefaultsOptions = {}): void {
  if (!(app.getHttpAdapter() instanceof FastPathAdapter)) {
    throw new Error('applyHttpDefaults: create the application with `new FastPathAdapter()` (libs/http/src/fast-path)');
  }
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.set('etag', false);
  useQueryParsedOnce(express);
  const filter = new ApiExceptionFilter(style, { writeJson, servedWithOtherMethod });
  app.useGlobalFilters(filter);
  (app.getHttpAdapter() as FastPathAdapter).errorFilter = filter;
  if (options.validationPipe !== false) {
    app.useGlobalPipes(createValidationPipe(typeof options.validationPipe === 'object' ? options.validationPipe : {}));
  }
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
  if (options.timeouts) applyServerTimeouts(app.getHttpServer() as Server, options.timeouts);
}

/**
 * Sets the timeouts of `server` (before it listens). Node checks the headers and request
 * timeouts only every `connectionsCheckingInterval` (30 s by default), which would let a slow
 * client hold a connection for up to 30 s past its limit: the check runs every tenth of the
 * smaller limit here (at most once a second, at least every 50 ms).
 */
export function applyServerTimeouts(server: Server, timeouts: HttpTimeouts): void {
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  const check = Math.min(1000, Math.max(50, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 10)));
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = check;
}
