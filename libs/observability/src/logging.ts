import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Level, type LoggerOptions } from 'pino';
import { REDACTED, isSensitiveKey, redactDeep, redactText } from './redact';
import { currentRequestId } from './request-context';
import { activeTraceFields, tracingEnabled } from './tracing';

// The request's store lives in request-context.ts (the tracing side reads it too); exported from here as before.
export { type RequestContext, currentRequestId, requestContext } from './request-context';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** Accepted incoming request ids: short and harmless in a log line; anything else is replaced. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the caller's `X-Request-Id` when it is a sane token, a fresh UUID
 * otherwise, echoed in the response's `X-Request-Id`.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && VALID_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

export interface LoggingOptions {
  /** Added to every line as `service`. */
  service: string;
  /** pino level (`LOG_LEVEL`). */
  level: string;
  /** Where lines go; standard output when unset (tests pass a stream to read them). */
  stream?: DestinationStream;
}

/**
 * pino settings: JSON lines, ISO times, `service`, redaction of objects, messages and errors;
 * with tracing on, `trace_id` and `span_id` of the active span on every line written in it.
 */
export function loggerOptions(options: LoggingOptions): LoggerOptions {
  return {
    ...(tracingEnabled() ? { mixin: traceMixin } : {}),
    level: options.level as Level,
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
    serializers: { err: (err: unknown) => redactDeep(err) },
  };
}

/** The process's pino logger with the project's format and redaction. */
export function createLogger(options: LoggingOptions): pino.Logger {
  const settings = loggerOptions(options);
  return options.stream ? pino(settings, options.stream) : pino(settings);
}

// pino merges the line's fields into what the mixin returns: a fresh object each time.
function traceMixin(): object {
  return activeTraceFields() ?? {};
}

/** Nest's start-up chatter (one line per module and route) is debug, not info. */
const FRAMEWORK_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

type PinoLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's logger (`app.useLogger`, and every `new Logger(context)`) on pino. A call's last
 * string argument is its context; an object first argument is merged into the line (an
 * `Error` goes under `err`); lines written while handling a request carry its `requestId`.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: pino.Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: PinoLevel, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const requestId = currentRequestId();
    if (requestId !== undefined) fields.requestId = requestId;
    let rest = params;
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      rest = params.slice(0, -1);
    }
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, message.message, ...rest);
    } else if (typeof message === 'object' && message !== null) {
      Object.assign(fields, message);
      this.logger[level](fields, ...(rest as [string?]));
    } else if (level === 'error' && rest.length === 1 && typeof rest[0] === 'string' && rest[0].includes('\n    at ')) {
      // Nest's own `error(message, stack, context)`.
      fields.err = { message: String(message), stack: rest[0] };
      this.logger.error(fields, String(message));
    } else {
      this.logger[level](fields, String(message), ...rest);
    }
  }
}

/**
 * Masks a log call's merging object. Requests, responses and streams are left out of the
 * walk (it would be slow and pointless), and so is the error under `err`, whose serializer
 * keeps its type and redacts it.
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
