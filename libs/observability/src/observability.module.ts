import { type DynamicModule, Global, Inject, Module } from '@nestjs/common';
import type pino from 'pino';
import type { DestinationStream } from 'pino';
import { DEFAULT_QUIET_PATHS } from './http-observer';
import { PinoNestLogger, createLogger } from './logging';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { METRICS_LISTEN, type MetricsListen, MetricsServer } from './metrics-server';
import { ShutdownState } from '@geoaccount/http';

export interface ObservabilityOptions {
  /** `service` label of every log line and metric series. */
  service: string;
  /** `LOG_LEVEL`. */
  logLevel: string;
  /** Log destination (default standard output). */
  logStream?: DestinationStream;
  /**
   * Paths whose successful requests get no access-log line, besides the probes and
   * `/metrics` (e.g. routes that log their own line); a path ending in `/` covers a prefix.
   */
  quietPaths?: readonly string[];
  /** Mask every query value of the access line (see `HttpObserverOptions.maskQueryValues`). */
  maskQueryValues?: boolean;
  /**
   * `METRICS_PORT`: serve `/metrics` on this port (and host) only, not on the application's
   * port (docs/contract.md §1). Unset: `/metrics` is a route of the application.
   */
  metricsListen?: MetricsListen;
  /** Process metrics (CPU, memory, event loop, GC); default on. */
  defaultMetrics?: boolean;
}

/** The application's pino logger (`pino.Logger`): inject it to write structured lines of your own. */
export const APP_LOGGER = Symbol('APP_LOGGER');
/** The resolved `quietPaths` of the access log (probes and scrapes included). */
export const QUIET_PATHS = Symbol('QUIET_PATHS');
/** Whether the access line masks every query value (`ObservabilityOptions.maskQueryValues`). */
export const MASK_QUERY_VALUES = Symbol('MASK_QUERY_VALUES');

/** The application's pino logger, injected. */
export const InjectAppLogger = (): ParameterDecorator => Inject(APP_LOGGER);

export type AppLogger = pino.Logger;

/**
 * Logs (pino; Nest's logger through `PinoNestLogger`), metrics (`Metrics`, `GET /metrics`),
 * and the shutdown state (libs/http's, for readiness and draining). Global: feature modules
 * inject `Metrics` or `APP_LOGGER` to add their own.
 */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(options: ObservabilityOptions): DynamicModule {
    const logger = createLogger({ service: options.service, level: options.logLevel, stream: options.logStream });
    return {
      module: ObservabilityModule,
      global: true,
      controllers: options.metricsListen ? [] : [MetricsController],
      providers: [
        ...(options.metricsListen ? [{ provide: METRICS_LISTEN, useValue: options.metricsListen }, MetricsServer] : []),
        { provide: Metrics, useFactory: () => new Metrics(options.service, { defaultMetrics: options.defaultMetrics }) },
        ShutdownState,
        { provide: APP_LOGGER, useValue: logger },
        { provide: PinoNestLogger, useValue: new PinoNestLogger(logger) },
        { provide: QUIET_PATHS, useValue: [...DEFAULT_QUIET_PATHS, ...(options.quietPaths ?? [])] },
        { provide: MASK_QUERY_VALUES, useValue: options.maskQueryValues === true },
      ],
      exports: [Metrics, ShutdownState, APP_LOGGER, PinoNestLogger, QUIET_PATHS, MASK_QUERY_VALUES, ...(options.metricsListen ? [MetricsServer] : [])],
    };
  }
}
