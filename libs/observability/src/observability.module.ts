import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { DEFAULT_QUIET_PATHS, createHttpLogger } from './logging';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { RateLimitInterceptor, TokenBucketLimiter } from './rate-limit';
import { ShutdownState } from './shutdown';

export interface ObservabilityOptions {
  /** `service` label of every log line and metric series. */
  service: string;
  /** `LOG_LEVEL`. */
  logLevel: string;
  /** `RATE_LIMIT_PER_MINUTE`: per calling app and instance; 0 or unset turns it off. */
  rateLimitPerMinute?: number;
  /** Log destination (default standard output). */
  logStream?: DestinationStream;
  /**
   * Paths whose successful requests get no access-log line, besides the probes and
   * `/metrics` (e.g. routes that log their own line); a path ending in `/` covers a prefix.
   */
  quietPaths?: readonly string[];
  /** Process metrics (CPU, memory, event loop, GC); default on. */
  defaultMetrics?: boolean;
}

/**
 * Logs (nestjs-pino), metrics (`Metrics`, `GET /metrics`), the shutdown state for readiness
 * and the per-app rate limit. Global: feature modules inject `Metrics` to add their own.
 */
/** The application's pino-http middleware (`HttpLogger`). */
export const HTTP_LOGGER = Symbol('HTTP_LOGGER');

@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(options: ObservabilityOptions): DynamicModule {
    const perMinute = options.rateLimitPerMinute ?? 0;
    const httpLogger = createHttpLogger({
      service: options.service,
      level: options.logLevel,
      stream: options.logStream,
      quietPaths: [...DEFAULT_QUIET_PATHS, ...(options.quietPaths ?? [])],
    });
    return {
      module: ObservabilityModule,
      global: true,
      // nestjs-pino keeps one root logger per process (the first application's); requests are
      // logged through the application's own pino-http instance (`HTTP_LOGGER`).
      imports: [LoggerModule.forRoot({ useExisting: true, pinoHttp: { logger: httpLogger.logger } })],
      controllers: [MetricsController],
      providers: [
        { provide: Metrics, useFactory: () => new Metrics(options.service, { defaultMetrics: options.defaultMetrics }) },
        ShutdownState,
        { provide: HTTP_LOGGER, useValue: httpLogger },
        ...(perMinute > 0
          ? [
              { provide: TokenBucketLimiter, useFactory: () => new TokenBucketLimiter(perMinute) },
              { provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor },
            ]
          : []),
      ],
      exports: [Metrics, ShutdownState, HTTP_LOGGER, LoggerModule],
    };
  }
}
