import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type ShutdownState, sentBody } from '@geoaccount/http';
import type pino from 'pino';
import { UNMATCHED_ROUTE, resultCodeOf, routeOf } from './http-metrics';
import { assignRequestId } from './logging';
import { type RequestContext, requestContext } from './request-context';
import type { Metrics } from './metrics';
import { redactUrl } from './redact';
import { startServerSpan, tracingEnabled } from './tracing';

export const DEFAULT_QUIET_PATHS = ['/health/live', '/health/ready', '/metrics'] as const;

export interface HttpObserverOptions {
  /** The application's logger (access lines). */
  logger: pino.Logger;
  metrics: Metrics;
  shutdown: ShutdownState;
  /**
   * Paths whose successful requests get no access line (probes, scrapes, routes that log
   * their own line; a path ending in `/` covers everything below it). Failures always do.
   */
  quietPaths?: readonly string[];
  /**
   * Mask every query value in the access line, not only the sensitive ones (location: its
   * queries carry coordinates and addresses, which are personal data; docs/contract.md §13).
   */
  maskQueryValues?: boolean;
}

/**
 * The per-request work of operations, in one middleware and one `finish` listener:
 * the request id (`X-Request-Id` in and out, and `requestId` on every log line written
 * while handling the request), `Connection: close` while draining, the HTTP metrics
 * (`http_request_duration_seconds`, `api_results_total` by the envelope's result code, read
 * from the body libs/http's JSON writer kept),
 * the trace's server span when tracing is on (named by route template),
 * and the access line: `info` on success, `warn` on 4xx, `error` on 5xx. The line and
 * its fields are built only when the level lets it be written.
 */
export function httpObserver(options: HttpObserverOptions): RequestHandler {
  const { logger, metrics, shutdown } = options;
  const quietPaths = options.quietPaths ?? DEFAULT_QUIET_PATHS;
  const quiet = (path: string) => quietPaths.some((q) => (q.endsWith('/') ? path.startsWith(q) : path === q));
  const traced = tracingEnabled();
  const maskQueryValues = options.maskQueryValues;

  /**
   * The answer's metric and access line. One function for every request (`this` is the
   * response, what it needs kept on it by `observe`): no closure and no `once` wrapper are
   * made per request (fast path of the request observer, docs/performance.md).
   */
  function finished(this: ObservedResponse): void {
    report(this);
  }

  /** The recorded span's end when the connection closes first (status 0: no answer). */
  function closed(this: ObservedResponse): void {
    this[OBSERVED].span?.end(this.writableFinished ? this.statusCode : 0, undefined);
  }

  function report(res: ObservedResponse): void {
    const { req, [OBSERVED]: seen } = res;
    const ms = performance.now() - seen.start;
    const status = res.statusCode;
    const route = routeOf(req);
    metrics.observeHttp(req.method, route, status, ms / 1000, resultCodeOf(sentBody(res)));
    seen.span?.end(status, route === UNMATCHED_ROUTE ? undefined : route);
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const path = pathOf(req);
    if (level === 'info' && quiet(path)) return;
    const line = {
      requestId: seen.requestId,
      req: { method: req.method, url: redactUrl(req.originalUrl, { maskQueryValues }), remoteAddress: req.socket.remoteAddress },
      res: { statusCode: status },
      responseTime: Math.round(ms),
    };
    logger[level](
      line,
      level === 'info' ? `${req.method} ${path} ${status} ${Math.round(ms)}ms` : `${req.method} ${path} ${status} failed`,
    );
  }

  return function observe(req: Request, res: Response, next: NextFunction): void {
    const start = performance.now();
    const requestId = assignRequestId(req, res);
    if (shutdown.shuttingDown) res.setHeader('Connection', 'close');
    const span = traced ? startServerSpan(req) : undefined;
    // A connection closed before the answer was sent ends the span too (a second end does nothing).
    if (span?.recording) res.on('close', closed);
    (res as ObservedResponse)[OBSERVED] = { start, requestId, span };
    res.on('finish', finished);
    // One store for the request id and the trace context (see `RequestContext`).
    const context: RequestContext = { requestId, trace: span?.context };
    requestContext.run(context, next);
  };
}

/** What `observe` keeps on a response for `finished`. */
const OBSERVED = Symbol('observed');
interface Observed {
  readonly start: number;
  readonly requestId: string;
  readonly span: ReturnType<typeof startServerSpan> | undefined;
}
type ObservedResponse = Response & { [OBSERVED]: Observed };

function pathOf(req: Request): string {
  const url = req.originalUrl;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
