import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Metrics } from './metrics';

/** Where `/metrics` is served when it has a port of its own (`METRICS_PORT`). */
export interface MetricsListen {
  port: number;
  host: string;
}

export const METRICS_LISTEN = Symbol('METRICS_LISTEN');

/**
 * `GET /metrics` on a port of its own (`METRICS_PORT`, docs/contract.md §1), so that an ingress
 * in front of `PORT` never exposes it; the application then serves no `/metrics` on `PORT`.
 * A plain HTTP server: nothing else is answered (404), and it starts with the application and
 * closes with it.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    private readonly metrics: Metrics,
    @Inject(METRICS_LISTEN) private readonly listen: MetricsListen,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if ((req.method === 'GET' || req.method === 'HEAD') && path === '/metrics') {
        this.metrics.render().then(
          (body) => {
            res.writeHead(200, { 'Content-Type': this.metrics.contentType, 'Cache-Control': 'no-store' });
            res.end(req.method === 'HEAD' ? undefined : body);
          },
          () => {
            res.writeHead(500).end();
          },
        );
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    });
    server.keepAliveTimeout = 5_000;
    server.headersTimeout = 10_000;
    server.requestTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listen.port, this.listen.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log(`metrics on http://${this.listen.host}:${this.port()}/metrics`);
  }

  /** The port it listens on (the one chosen when `METRICS_PORT=0`). */
  port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
