// The frame every baseline shares: a bare node:http server on PORT that answers
// /health/live (so the harness waits for it the same way as for a service) and hands every
// other request to the baseline's handler.
import { createServer } from 'node:http';

export function sendJson(res, status, body) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Serves `handler(req, res)`; a thrown or rejected handler answers 500. */
export function serve(handler) {
  const server = createServer((req, res) => {
    if (req.url === '/health/live') return sendJson(res, 200, { status: 'ok' });
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((err) => {
        process.stderr.write(`baseline: ${err?.stack ?? err}\n`);
        if (!res.headersSent) sendJson(res, 500, { error: String(err?.message ?? err) });
        else res.destroy();
      });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return server;
}

/** Query parameters of a request URL (the parsing every service does too). */
export function queryOf(req) {
  return new URL(req.url, 'http://localhost').searchParams;
}
