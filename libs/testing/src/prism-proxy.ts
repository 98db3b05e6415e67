import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * Stoplight Prism as a validating proxy in front of the services the e2e suites start
 * (`E2E_VIA_PRISM=1`). One Prism per test run and app: its upstream is a small dispatcher that
 * forwards each request to the service named by its `x-e2e-upstream` header, since every test
 * file starts its own service on a port of its own. Prism checks each request and answer
 * against the app's OpenAPI document and reports what does not match in the answer's
 * `sl-violations` header (checked by `checkPrismViolations`).
 *
 * The tests reach Prism through a front relay of this module, never directly: no leg of the path
 * may close an idle keep-alive connection that its client is about to reuse. A worker busy
 * compiling the next test file does not see the server's close of its pooled connection in time
 * and sends its next request down it ("other side closed"). So the relays here own every leg's
 * connection policy: towards their clients they keep idle connections longer than any client does
 * (the clients close them), and towards Prism and the services they open a connection per request.
 */
export const UPSTREAM_HEADER = 'x-e2e-upstream';

export interface PrismProxy {
  url: string;
  stop(): Promise<void>;
}

/** Idle keep-alive connections of the relays' clients are kept this long: the client closes first. */
const CLIENT_IDLE_MS = 15 * 60_000;

/** A connection per forwarded request: none is ever reused after its server closed it. */
const oneShot = new Agent({ keepAlive: false });

/** Headers of one connection, not to be forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

/** `headers` without the hop-by-hop ones and `omit`. */
function endToEnd(headers: IncomingHttpHeaders, omit?: string): IncomingHttpHeaders {
  const out = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  if (omit !== undefined) delete out[omit];
  return out;
}

/** Forwards `req` to `target` over a fresh connection and pipes the answer back. */
function forward(req: IncomingMessage, res: ServerResponse, target: URL, omitHeader?: string): void {
  const out = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...endToEnd(req.headers, omitHeader), host: target.host }, agent: oneShot },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(res);
    },
  );
  out.on('error', () => res.destroy());
  req.pipe(out);
}

/** A relay's server: it never closes an idle client connection before the client does. */
function relayServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const server = createServer(handler);
  server.keepAliveTimeout = CLIENT_IDLE_MS;
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  return server;
}

/** Forwards a request to the origin of its `x-e2e-upstream` header (127.0.0.1 only). */
function dispatch(req: IncomingMessage, res: ServerResponse): void {
  const upstream = req.headers[UPSTREAM_HEADER];
  const target = typeof upstream === 'string' ? new URL(upstream) : undefined;
  if (!target || target.hostname !== '127.0.0.1') {
    res.writeHead(502).end(`missing or foreign ${UPSTREAM_HEADER}`);
    return;
  }
  forward(req, res, target, UPSTREAM_HEADER);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts the dispatcher, `prism proxy <document>` in front of it and the front relay in front of
 * Prism; resolves once Prism listens, with the front relay's URL.
 */
export async function startPrismProxy(document: string, timeoutMs = 60_000): Promise<PrismProxy> {
  const dispatcher = relayServer(dispatch);
  const upstreamPort = await listen(dispatcher);
  const port = await freePort();
  const prismOrigin = new URL(`http://127.0.0.1:${port}`);
  const front = relayServer((req, res) => forward(req, res, prismOrigin));
  const frontPort = await listen(front);
  const cli = join(require.resolve('@stoplight/prism-cli/package.json'), '../dist/index.js');
  const prism: ChildProcess = spawn(
    process.execPath,
    [cli, 'proxy', document, `http://127.0.0.1:${upstreamPort}`, '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let output = '';
  const stop = async (): Promise<void> => {
    if (prism.exitCode === null) {
      const exited = new Promise((resolve) => prism.once('exit', resolve));
      prism.kill('SIGTERM');
      await exited;
    }
    for (const server of [front, dispatcher]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`prism did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const onData = (chunk: Buffer): void => {
        output += chunk.toString('utf8');
        if (output.includes('Prism is listening')) {
          clearTimeout(timer);
          resolve();
        }
      };
      prism.stdout!.on('data', onData);
      prism.stderr!.on('data', onData);
      prism.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`prism exited with ${code}:\n${output}`));
      });
    });
  } catch (err) {
    await stop();
    throw err;
  }
  // Keep draining its log (one line per request) so that its pipes never fill up.
  prism.stdout!.resume();
  prism.stderr!.resume();
  return { url: `http://127.0.0.1:${frontPort}`, stop };
}
