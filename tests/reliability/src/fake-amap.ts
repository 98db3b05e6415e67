import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the fake upstream does with the next requests. */
export type FakeAmapMode = 'ok' | 'slow' | 'http500' | 'garbage' | 'reset';

/** The key the location service is configured with (the log scan looks for it). */
export const FAKE_AMAP_KEY = 'rel-amap-key-4d3c2b1a0f9e8d7c';

/**
 * AMap's web-service API v3 on 127.0.0.1 (real HTTP): `/v3/geocode/regeo` and
 * `/v3/geocode/geo` in AMap's JSON shape, answering every point with one district of
 * Beijing. A test switches `mode` to make it slow, fail with 500, answer garbage or reset
 * the connection, and reads `hits`.
 */
export class FakeAmap {
  mode: FakeAmapMode = 'ok';
  slowMs = 5000;
  hits = 0;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.hits++;
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.searchParams.get('key') !== FAKE_AMAP_KEY) return this.json(res, { status: '0', info: 'INVALID_USER_KEY', infocode: '10001' });
    switch (this.mode) {
      case 'slow': {
        const timer = setTimeout(() => this.answer(url, res), this.slowMs);
        res.once('close', () => clearTimeout(timer));
        return;
      }
      case 'http500':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"1","regeocode":{"addressComponent":');
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'ok':
        this.answer(url, res);
    }
  }

  private answer(url: URL, res: ServerResponse): void {
    if (url.pathname === '/v3/geocode/regeo') {
      return this.json(res, {
        status: '1',
        info: 'OK',
        infocode: '10000',
        regeocode: {
          formatted_address: '北京市东城区东华门街道天安门',
          addressComponent: {
            country: '中国',
            province: '北京市',
            city: [],
            citycode: '010',
            district: '东城区',
            adcode: '110101',
            township: '东华门街道',
          },
        },
      });
    }
    if (url.pathname === '/v3/geocode/geo') {
      return this.json(res, {
        status: '1',
        info: 'OK',
        infocode: '10000',
        count: '1',
        geocodes: [
          {
            formatted_address: '北京市东城区长安街1号',
            country: '中国',
            province: '北京市',
            city: '北京市',
            district: '东城区',
            adcode: '110101',
            location: '116.397499,39.908722',
          },
        ],
      });
    }
    res.writeHead(404).end();
  }

  private json(res: ServerResponse, body: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' }).end(JSON.stringify(body));
  }
}
