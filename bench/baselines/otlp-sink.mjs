// The OTLP/HTTP receiver of the tracing rows: accepts trace exports on /v1/traces (protobuf
// or JSON, as a collector does), drains them and answers an empty success; GET /stats tells
// how many exports and bytes it received, so that a row shows the spans really went out.
import { sendJson, serve } from './serve.mjs';

let exports = 0;
let bytes = 0;

serve((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') return sendJson(res, 200, { exports, bytes });
  if (req.method !== 'POST' || req.url !== '/v1/traces') return sendJson(res, 404, {});
  req.on('data', (chunk) => (bytes += chunk.length));
  req.on('end', () => {
    exports++;
    const json = (req.headers['content-type'] ?? '').startsWith('application/json');
    res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf', 'content-length': json ? 2 : 0 });
    res.end(json ? '{}' : undefined);
  });
});
