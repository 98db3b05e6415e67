import { type ChildProcess, spawn } from 'node:child_process';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * Stoplight Prism as a validating proxy in front of the services the e2e suites start
 * (`E2E_VIA_PRISM=1`). One Prism per test run and app: its upstream is a small dispatcher that
 * forwards each request to the service named by its `x-e2e-upstream` header, since every test
 * file starts its own service on a port of its own. Prism checks each request and answer
 * against the app's OpenAPI document and reports what does not match in the answer's
 * `sl-violations` header (checked by `checkPrismViolations`).
 */
export const UPSTREAM_HEADER = 'x-e2e-upstream';

export interface PrismProxy {
  url: string;
  stop(): Promise<void>;
}

/** Forwards a request to the origin of its `x-e2e-upstream` header (127.0.0.1 only). */
function dispatch(req: IncomingMessage, res: ServerResponse): void {
  const upstream = req.headers[UPSTREAM_HEADER];
  const target = typeof upstream === 'string' ? new URL(upstream) : undefined;
  if (!target || target.hostname !== '127.0.0.1') {
    res.writeHead(502).end(`missing or foreign ${UPSTREAM_HEADER}`);
    return;
  }
  const headers = { ...req.headers };
  delete headers[UPSTREAM_HEADER];
  headers.host = target.host;
  const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  forward.on('error', () => res.destroy());
  req.pipe(forward);
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

/** Starts the dispatcher and `prism proxy <document>` in front of it; resolves once Prism listens. */
export async function startPrismProxy(document: string, timeoutMs = 60_000): Promise<PrismProxy> {
  const dispatcher = createServer(dispatch);
  const upstreamPort = await listen(dispatcher);
  const port = await freePort();
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
    await new Promise((resolve) => dispatcher.close(resolve));
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
  return { url: `http://127.0.0.1:${port}`, stop };
}
