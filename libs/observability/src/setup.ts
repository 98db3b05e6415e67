import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { httpObserver } from './http-observer';
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

/**
 * A new connection's peer address, read once as the connection opens (a `connection` listener
 * of the HTTP server, `useRequestObserver`), so that every socket gets the property Node keeps
 * it in (`remoteAddress` is a getter that stores its first answer on the socket) at the same
 * point of its life.
 *
 * Why (docs/performance.md, "The seventh round"): read later, by some requests only (a sampled
 * request's span, the access line of a failure, an audited write), the address gave the sockets
 * that had such a request hidden classes of their own, in several orders with the properties Node
 * adds as a connection is used; five socket shapes instead of two made V8's caches in Node's
 * HTTP and stream code megamorphic for every request, and 10% sampling cost about 4% more CPU.
 */
function readPeerAddress(socket: Socket): string | undefined {
  return socket.remoteAddress;
}
