import { IncomingMessage, type Server, ServerResponse, createServer } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * Fast path "Express's prototypes from the start": an HTTP server whose requests and responses
 * are made with the Express application's own prototypes (`app.request`, `app.response`), so
 * that Express's per-request `Object.setPrototypeOf(req, app.request)` (and `res`) finds the
 * prototype already in place and changes nothing.
 *
 * Instead of Node's plain `IncomingMessage` / `ServerResponse`, re-prototyped by Express on
 * every request: a prototype change gives each request and response object a new hidden class,
 * which V8 pays for in the change itself (Express's `handle` and `init` were 4-8% of a cached
 * lbsQuery's self time) and in every property access after it. The objects are built by Node's
 * own constructors (`http.createServer`'s documented `IncomingMessage` / `ServerResponse`
 * options), so they are what Express makes of them one step later: the same methods, the same
 * `instanceof`. Gain: docs/performance.md ("A read does only a read's work").
 */
export function createExpressServer(app: Express): Server {
  function ExpressRequest(this: IncomingMessage, socket: Socket): void {
    IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: ServerResponse, req: IncomingMessage, options?: unknown): void {
    (ServerResponse as unknown as (req: IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return createServer(
    {
      IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}
