import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { type INestApplication, Injectable, Logger } from '@nestjs/common';

/** Whether the service is shutting down; readiness reports "down" from the first signal on. */
@Injectable()
export class ShutdownState {
  private since?: number;

  get shuttingDown(): boolean {
    return this.since !== undefined;
  }

  begin(): void {
    this.since ??= Date.now();
  }
}

export interface GracefulShutdownOptions {
  /** Upper bound of the whole sequence (`SHUTDOWN_TIMEOUT_MS`); past it the process exits with 1. */
  timeoutMs: number;
  /**
   * Time between "not ready" and closing the listener (`SHUTDOWN_DRAIN_MS`), during which
   * requests are still served: load balancers need a moment to stop sending new ones.
   */
  drainMs?: number;
  signals?: NodeJS.Signals[];
  /** How long idle sockets are left open after the listener closed (default 500 ms). */
  idleGraceMs?: number;
  /** Runs after Nest closed the application (e.g. stops an embedded database). */
  afterClose?: () => Promise<void>;
  /** Runs last; a failure is only logged (the services: `flushTracing`, the pending spans). */
  flush?: () => Promise<void>;
  /** How the process ends (tests pass their own). */
  exit?: (code: number) => void;
}

export interface GracefulShutdown {
  /** Runs the sequence (as a signal would) and resolves with the exit code. */
  shutdown(reason: string): Promise<number>;
  /** Removes the signal handlers. */
  dispose(): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Stops accepting connections and resolves once every in-flight request has been answered.
 * Sockets without a request in progress are closed only after `idleGraceMs`: a connection
 * accepted just before may hold a request that a busy event loop has not parsed yet.
 * Answers given meanwhile carry `Connection: close` (see `httpObserver`), so
 * keep-alive clients leave by themselves.
 */
export function closeServer(server: Server, idleGraceMs = DEFAULT_IDLE_GRACE_MS): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    let sweeper: NodeJS.Timeout | undefined;
    const grace = setTimeout(() => {
      server.closeIdleConnections();
      sweeper = setInterval(() => server.closeIdleConnections(), 25);
    }, idleGraceMs);
    // net.Server's close, not http.Server's: the latter also drops idle sockets at once,
    // including just-accepted ones whose request is not parsed yet.
    NetServer.prototype.close.call(server, () => {
      clearTimeout(grace);
      clearInterval(sweeper);
      resolve();
    });
  });
}

const DEFAULT_IDLE_GRACE_MS = 500;

/**
 * On SIGTERM / SIGINT: readiness turns false, requests keep being served for `drainMs`, the
 * listener closes and in-flight requests finish, then Nest closes the application (pools,
 * Redis, embedded servers) and the process exits 0 — or 1 if that took longer than
 * `timeoutMs`. Replaces Nest's own shutdown hooks, which would close the pools while
 * requests are still running.
 */
export function installGracefulShutdown(app: INestApplication, options: GracefulShutdownOptions): GracefulShutdown {
  const logger = new Logger('Shutdown');
  const state = app.get(ShutdownState, { strict: false });
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  let running: Promise<number> | undefined;

  const shutdown = (reason: string): Promise<number> => {
    running ??= (async () => {
      const started = Date.now();
      let timedOut = false;
      const deadline = setTimeout(() => {
        timedOut = true;
        logger.error(`shutdown did not finish within ${options.timeoutMs} ms; exiting`);
        exit(1);
      }, options.timeoutMs);
      try {
        state.begin();
        logger.log(`${reason}: not ready any more, draining for ${options.drainMs ?? 0} ms`);
        if (options.drainMs) await sleep(options.drainMs);
        await closeServer(app.getHttpServer() as Server, options.idleGraceMs);
        logger.log(`listener closed, in-flight requests done after ${Date.now() - started} ms; closing the application`);
        await app.close();
        await options.afterClose?.();
        await options.flush?.().catch((err: unknown) => logger.warn({ err }, 'the final flush failed'));
        if (timedOut) return 1;
        logger.log(`stopped after ${Date.now() - started} ms`);
        exit(0);
        return 0;
      } catch (err) {
        logger.error({ err }, 'shutdown failed');
        exit(1);
        return 1;
      } finally {
        clearTimeout(deadline);
      }
    })();
    return running;
  };

  const onSignal = (signal: NodeJS.Signals) => {
    void shutdown(signal);
  };
  for (const signal of signals) process.on(signal, onSignal);
  return {
    shutdown,
    dispose: () => {
      for (const signal of signals) process.removeListener(signal, onSignal);
    },
  };
}
