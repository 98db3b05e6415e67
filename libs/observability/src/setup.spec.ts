import { type AddressInfo, type Socket, connect } from 'node:net';
import { type Server, createServer } from 'node:http';
import { createFixtureApp } from '../test/fixture-app';

/** Whether each of `count` connections to `server` had its peer address kept when its `connection` listeners ran. */
async function peerKeptOnConnect(server: Server, count: number): Promise<boolean[]> {
  const seen: boolean[] = [];
  const opened = new Promise<void>((resolve) => {
    // Registered last: runs after the listeners already there (Node's, and the observer's).
    server.on('connection', (socket: Socket) => {
      // Node keeps the answer of `remoteAddress` in `_peername` (net.js, `_getpeername`).
      seen.push(Object.hasOwn(socket, '_peername'));
      if (seen.length === count) resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const clients = Array.from({ length: count }, () => connect(port, '127.0.0.1'));
  await opened;
  for (const client of clients) client.destroy();
  return seen;
}

describe('useRequestObserver', () => {
  // Every socket gets the property at the same point of its life, before any request: read later
  // by some requests only, it gave sockets shapes of their own (docs/performance.md, "The seventh round").
  it('reads each connection’s peer address as the connection opens, before its first request', async () => {
    const { app } = await createFixtureApp();
    await app.listen(0, '127.0.0.1');
    try {
      expect(await peerKeptOnConnect(app.getHttpServer() as Server, 3)).toEqual([true, true, true]);
    } finally {
      await app.close();
    }
  });

  it('(control) a bare HTTP server leaves it unread until asked', async () => {
    const server = createServer((_req, res) => res.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(await peerKeptOnConnect(server, 2)).toEqual([false, false]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
