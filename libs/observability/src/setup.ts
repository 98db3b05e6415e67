import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { httpObserver, readPeerAddress } from './http-observer';
import { PinoNestLogger } from './logging';
import { Metrics } from './metrics';
import { APP_LOGGER, type AppLogger, MASK_QUERY_VALUES, QUIET_PATHS } from './observability.module';
import { ShutdownState } from '@geoaccount/http';

/**
 * The HTTP side of `ObservabilityModule`, applied before the application starts listening:
 * Nest's logger on pino, and the request observer (request id, access line, metrics,
 * draining) wired to the module's logger, metrics, shutdown state and quiet paths, and each
 * connection's peer address read as it opens (`readPeerAddress`).
 * Create the application with `bufferLogs: true` so that start-up logs go through pino too.
 */
export function useRequestObserver(app: INestApplication): void {
  app.useLogger(app.get(PinoNestLogger));
  app.use(
    httpObserver({
      logger: app.get<AppLogger>(APP_LOGGER),
      metrics: app.get(Metrics),
      shutdown: app.get(ShutdownState),
      quietPaths: app.get<readonly string[]>(QUIET_PATHS),
      maskQueryValues: app.get<boolean>(MASK_QUERY_VALUES),
    }),
  );
  (app.getHttpServer() as Server).on('connection', readPeerAddress);
}
