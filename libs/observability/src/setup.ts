import type { INestApplication, LoggerService } from '@nestjs/common';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import type { HttpLogger } from 'pino-http';
import { httpMetricsMiddleware } from './http-metrics';
import { requestIdMiddleware } from './logging';
import { Metrics } from './metrics';
import { HTTP_LOGGER } from './observability.module';
import { type OpenApiOptions, setupOpenApi } from './openapi';
import { ShutdownState, drainingMiddleware } from './shutdown';

export interface OperationsOptions {
  /** Serve `/docs` and `/docs-json`. */
  openApi?: OpenApiOptions;
}

/**
 * The HTTP side of `ObservabilityModule`, applied before the application starts listening:
 * the pino logger for Nest's own logs, the request id, helmet's headers, the HTTP metrics,
 * `Connection: close` while draining, and the OpenAPI document.
 * Create the application with `bufferLogs: true` so that start-up logs go through pino too.
 */
export function applyOperations(app: INestApplication, options: OperationsOptions = {}): void {
  app.useLogger(new QuietFrameworkLogger(app.get(Logger)));
  app.use(requestIdMiddleware);
  app.use(app.get<HttpLogger>(HTTP_LOGGER));
  app.use(helmet());
  app.use(httpMetricsMiddleware(app.get(Metrics)));
  app.use(drainingMiddleware(app.get(ShutdownState)));
  if (options.openApi) setupOpenApi(app, options.openApi);
}

/** Nest's start-up chatter (one line per module and route) is debug, not info. */
const FRAMEWORK_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

export class QuietFrameworkLogger implements LoggerService {
  constructor(private readonly inner: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    if (typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context)) this.inner.debug(message, ...params);
    else this.inner.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.inner.debug(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.inner.verbose(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.inner.fatal(message, ...params);
  }
}
