/**
 * The e2e path through Prism: request and answer pass through unchanged, and no leg closes an
 * idle keep-alive connection before its client does (a worker busy compiling its next test file
 * would otherwise send its next request down a connection the server had just closed).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PrismProxy, UPSTREAM_HEADER, startPrismProxy } from './prism-proxy';

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'echo', version: '1' },
  paths: {
    '/echo': {
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'the body back', content: { 'application/json': { schema: { type: 'object', required: ['echo'] } } } } },
      },
    },
  },
};

/** A service in a process of its own that closes idle connections after 200 ms. */
function startService(): Promise<{ child: ChildProcess; origin: string }> {
  const source = `
    const server = require('node:http').createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c)).on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ echo: JSON.parse(body) }));
      });
    });
    server.keepAliveTimeout = 200;
    server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
    child.stdout!.once('data', (port: Buffer) => resolve({ child, origin: `http://127.0.0.1:${String(port).trim()}` }));
  });
}

function post(url: string, origin: string, agent: Agent, body: object): Promise<{ status: number; body: unknown; reused: boolean }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/echo`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), [UPSTREAM_HEADER]: origin } },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (data += c)).on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data), reused: req.reusedSocket }));
      },
    );
    req.on('error', reject).end(text);
  });
}

describe('the Prism proxy of the e2e suites', () => {
  let dir: string;
  let service: { child: ChildProcess; origin: string };
  let prism: PrismProxy;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prism-proxy-'));
    writeFileSync(join(dir, 'echo.json'), JSON.stringify(DOCUMENT));
    service = await startService();
    prism = await startPrismProxy(join(dir, 'echo.json'));
  }, 90_000);

  afterAll(async () => {
    agent.destroy();
    await prism?.stop();
    service?.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes the request and the answer through', async () => {
    const res = await post(prism.url, service.origin, agent, { city: '北京市' });
    expect(res).toMatchObject({ status: 200, body: { echo: { city: '北京市' } } });
  });

  it("keeps an idle client connection past every server's idle timeout: the client closes it, not the path", async () => {
    await post(prism.url, service.origin, agent, { n: 1 });
    // Longer than the service's 200 ms and Prism's own 5 s idle timeouts.
    await new Promise((r) => setTimeout(r, 6_000));
    const res = await post(prism.url, service.origin, agent, { n: 2 });
    expect(res).toMatchObject({ status: 200, body: { echo: { n: 2 } }, reused: true });
  }, 30_000);
});
