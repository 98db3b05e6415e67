import { type AddressInfo } from 'node:net';
import { Agent, request as httpRequest } from 'node:http';
import { createFixtureApp, ShutdownProbe, slowHandlersDone } from '../test/fixture-app';
import { ShutdownState, installGracefulShutdown } from '@geoaccount/http';

interface Answer {
  status: number;
  connection?: string;
  body: string;
}

function get(port: number, path: string, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// libs/http's graceful shutdown with this library's request observer (`Connection: close` while draining).
describe('graceful shutdown', () => {
  it('turns readiness off, keeps serving while draining, finishes in-flight requests, then closes the app and exits 0', async () => {
    const fixture = await createFixtureApp();
    const { app } = fixture;
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as AddressInfo).port;
    const exits: number[] = [];
    let afterCloseAt = 0;
    let flushedAt = 0;
    const graceful = installGracefulShutdown(app, {
      timeoutMs: 5000,
      drainMs: 800,
      signals: ['SIGUSR2'],
      exit: (code) => exits.push(code),
      afterClose: async () => {
        afterCloseAt = Date.now();
      },
      flush: async () => {
        flushedAt = Date.now();
        throw new Error('exporter down');
      },
    });
    const state = app.get(ShutdownState);
    const probe = app.get(ShutdownProbe);
    const agent = new Agent({ keepAlive: true });
    try {
      expect((await get(port, '/open/slow?ms=0')).status).toBe(200);
      const inFlight = Array.from({ length: 10 }, () => get(port, '/open/slow?ms=1200', agent));
      await sleep(100);
      const signalledAt = Date.now();
      process.emit('SIGUSR2', 'SIGUSR2');
      await sleep(20);
      expect(state.shuttingDown).toBe(true);
      // still served while draining, told to close the connection
      const during = await get(port, '/open/slow?ms=0');
      expect(during.status).toBe(200);
      expect(during.connection).toBe('close');

      const answers = await Promise.all(inFlight);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toEqual({ response_code: '90000', response_message: 'success', slept: '1200' });
      }
      const exitCode = await graceful.shutdown('again');
      expect(exitCode).toBe(0);
      expect(exits).toEqual([0]);
      // the application was closed after the last answer, not before
      expect(probe.closedAt).toBeGreaterThanOrEqual(Math.max(...slowHandlersDone));
      expect(afterCloseAt).toBeGreaterThanOrEqual(probe.closedAt!);
      // the flush runs last, and its failure does not change the exit code
      expect(flushedAt).toBeGreaterThanOrEqual(afterCloseAt);
      // exit code 0: closed before its 5 s timeout; the wall clock only bounds it generously (a loaded machine is late)
      expect(probe.closedAt! - signalledAt).toBeLessThan(5000 + 10_000);
      // the listener is gone
      await expect(get(port, '/open/slow')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      graceful.dispose();
      agent.destroy();
    }
  });

  it('exits 1 when requests outlive SHUTDOWN_TIMEOUT_MS', async () => {
    const fixture = await createFixtureApp();
    const { app } = fixture;
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as AddressInfo).port;
    let exited: (code: number) => void = () => undefined;
    const exit = new Promise<number>((resolve) => (exited = resolve));
    const graceful = installGracefulShutdown(app, { timeoutMs: 300, signals: [], exit: (code) => exited(code) });
    try {
      expect((await get(port, '/open/slow?ms=0')).status).toBe(200);
      let slowAnsweredAt: number | undefined;
      const slow = get(port, '/open/slow?ms=3000').then(
        (answer) => ((slowAnsweredAt = Date.now()), answer),
        () => (slowAnsweredAt = Date.now()),
      );
      await sleep(50);
      const started = Date.now();
      const done = graceful.shutdown('test');
      expect(await exit).toBe(1);
      const exitedAt = Date.now();
      // at its timeout (300 ms), not when the slow request ends (3 s): the exit comes first
      expect(exitedAt - started).toBeGreaterThanOrEqual(250);
      expect(slowAnsweredAt).toBeUndefined();
      await slow;
      expect(await done).toBe(1);
    } finally {
      graceful.dispose();
    }
  });
});
