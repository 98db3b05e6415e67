import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { accountEnvelope } from '@geoaccount/api';
import { FastPathAdapter } from './fast-path/json-answer';
import { applyHttpDefaults } from './http-defaults';

@Controller('ping')
class PingController {
  @Get()
  ping() {
    return { pong: true };
  }
}

@Module({ controllers: [PingController] })
class PingModule {}

/** Sends `chunks` one every `everyMs` on one connection; when did the server close it, and what did it send. */
function slowly(
  port: number,
  chunks: string[],
  everyMs: number,
  giveUpMs = GIVE_UP_MS,
): Promise<{ closedAfterMs?: number; received: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let next = 0;
    const timer = setInterval(() => next < chunks.length && !socket.destroyed && socket.write(chunks[next++]!), everyMs);
    const giveUp = setTimeout(() => done(undefined), giveUpMs);
    const done = (closedAfterMs: number | undefined) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedAfterMs, received });
    };
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (received += d));
    socket.on('error', () => undefined);
    socket.on('close', () => done(Date.now() - started));
  });
}

/**
 * How late past its limit a connection may be closed: the server checks expired connections
 * every few hundred ms, and a loaded machine delays timers by seconds. The slow clients below
 * keep sending for longer than limit + LATE_MS, so a missing timeout still fails the test.
 */
const LATE_MS = 10_000;
const GIVE_UP_MS = 1200 + LATE_MS + 2000;

describe('HTTP server timeouts', () => {
  let app: INestApplication;
  let port: number;

  beforeAll(async () => {
    app = await NestFactory.create(PingModule, new FastPathAdapter(), { bodyParser: false, logger: false });
    applyHttpDefaults(app, accountEnvelope, { timeouts: { headersMs: 600, requestMs: 1200, keepAliveMs: 400 } });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('sets the three timeouts on the server, and checks expired connections often enough to keep them', () => {
    const server = app.getHttpServer() as Server & { connectionsCheckingInterval: number };
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([600, 1200, 400]);
    expect(server.connectionsCheckingInterval).toBeLessThanOrEqual(150);
  });

  it('answers 408 and closes a connection whose headers are not complete within headersMs', async () => {
    // one byte every 50 ms: the headers would be complete after ~17 s
    const head = [...`GET /ping HTTP/1.1\r\nHost: x\r\nX-Slow: ${'x'.repeat(300)}\r\n\r\n`];
    const res = await slowly(port, head, 50);
    expect(res.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(550);
    expect(res.closedAfterMs).toBeLessThan(600 + LATE_MS);
  });

  it('closes a connection whose body does not end within requestMs', async () => {
    // one byte every 50 ms: the body would be complete after ~20 s
    const res = await slowly(port, ['POST /ping HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n', ...'y'.repeat(400)], 50);
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(1150);
    expect(res.closedAfterMs).toBeLessThan(1200 + LATE_MS);
  });

  it("closes an idle keep-alive connection after keepAliveMs (plus Node's keepAliveTimeoutBuffer, 1 s)", async () => {
    const res = await slowly(port, ['GET /ping HTTP/1.1\r\nHost: x\r\n\r\n'], 10);
    expect(res.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(400);
    // well before Node's default keepAliveTimeout (5 s) would close it
    expect(res.closedAfterMs).toBeLessThan(400 + 1000 + 3000);
  });
});
