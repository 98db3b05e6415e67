import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import pino, { type DestinationStream, type Level, type LevelWithSilent } from 'pino';
import { type HttpLogger, type Options, pinoHttp } from 'pino-http';
import { REDACTED, isSensitiveKey, redactDeep, redactText, redactUrl } from './redact';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** Accepted incoming request ids: short and harmless in a log line; anything else is replaced. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type WithId = IncomingMessage & { id?: unknown; originalUrl?: string };

/**
 * The request's id: the caller's `X-Request-Id` when it is a sane token, a fresh UUID
 * otherwise. It is kept on `req.id` and echoed in the response's `X-Request-Id`.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const tagged = req as WithId;
  if (typeof tagged.id === 'string') return tagged.id;
  const header = req.headers['x-request-id'];
  const given = Array.isArray(header) ? header[0] : header;
  const id = given !== undefined && VALID_REQUEST_ID.test(given) ? given : randomUUID();
  tagged.id = id;
  if (!res.headersSent) res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** Express middleware: assigns the request id before anything else can answer. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  assignRequestId(req, res);
  next();
}

export interface LoggingOptions {
  /** Added to every line as `service`. */
  service: string;
  /** pino level (`LOG_LEVEL`). */
  level: string;
  /** Where lines go; standard output when unset (tests pass a stream to read them). */
  stream?: DestinationStream;
  /**
   * Paths whose successful requests are not logged (probes, scrapes; a path ending in `/`
   * covers everything below it). Failed requests are always logged.
   */
  quietPaths?: readonly string[];
}

export const DEFAULT_QUIET_PATHS = ['/health/live', '/health/ready', '/metrics'] as const;

interface SerializedRequest {
  id?: unknown;
  method?: string;
  url?: string;
  remoteAddress?: string;
  raw?: WithId;
}

function pathOf(req: IncomingMessage): string {
  const url = (req as WithId).originalUrl ?? req.url ?? '';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** pino-http options: JSON lines, the request id, redaction everywhere, levels by status. */
export function pinoHttpOptions(options: LoggingOptions): Options {
  const quietPaths = options.quietPaths ?? DEFAULT_QUIET_PATHS;
  const quiet = (path: string) => quietPaths.some((q) => (q.endsWith('/') ? path.startsWith(q) : path === q));
  return {
    level: options.level,
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      // Runs on every merging object before it is serialized: masks sensitive fields at any depth.
      log: (object) => redactObject(object),
    },
    hooks: {
      // Messages and interpolation arguments may quote a query string or an error text.
      logMethod(args, method) {
        const cleaned = args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg));
        const first = cleaned[0];
        if (first instanceof Error && cleaned.length === 1) {
          method.apply(this, [{ err: first }, redactText(first.message)]);
          return;
        }
        method.apply(this, cleaned as Parameters<typeof method>);
      },
    },
    serializers: {
      req: (req: SerializedRequest) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.raw?.originalUrl ?? req.url ?? ''),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: (err: unknown) => redactDeep(err),
    },
    genReqId: (req, res) => assignRequestId(req, res),
    customAttributeKeys: { reqId: 'requestId' },
    quietReqLogger: true,
    customLogLevel: (req, res, err): LevelWithSilent => {
      if (err !== undefined || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      return quiet(pathOf(req)) ? 'silent' : 'info';
    },
    customSuccessMessage: (req, res, responseTime) => `${req.method} ${pathOf(req)} ${res.statusCode} ${Math.round(responseTime)}ms`,
    customErrorMessage: (req, res) => `${req.method} ${pathOf(req)} ${res.statusCode} failed`,
  };
}

/**
 * The request logger of one application: pino-http with `pinoHttpOptions`, mounted by
 * `applyOperations`. nestjs-pino (`useExisting`) binds it to each request, so Nest's
 * `Logger` calls made while handling a request go to this application's logger.
 */
export function createHttpLogger(options: LoggingOptions): HttpLogger {
  const http = pinoHttpOptions(options);
  return options.stream ? pinoHttp(http, options.stream) : pinoHttp(http);
}

/** A plain pino logger with the same format and redaction, for code outside Nest (start-up, shutdown). */
export function createLogger(options: Omit<LoggingOptions, 'quietPaths'>): pino.Logger {
  const http = pinoHttpOptions(options);
  const settings = {
    level: options.level as Level,
    base: http.base,
    timestamp: http.timestamp,
    formatters: http.formatters,
    hooks: http.hooks,
    serializers: { err: (err: unknown) => redactDeep(err) },
  };
  return options.stream ? pino(settings, options.stream) : pino(settings);
}

/**
 * Masks a log call's merging object. Requests, responses and streams are left to their
 * serializers (walking them would be slow and pointless), and so is the error under `err`,
 * whose serializer keeps its type and redacts it.
 */
function redactObject(object: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (isSensitiveKey(key) && value !== undefined && value !== null && value !== '') out[key] = REDACTED;
    else if (value instanceof EventEmitter || (key === 'err' && value instanceof Error)) out[key] = value;
    else out[key] = redactDeep(value);
  }
  return out;
}
