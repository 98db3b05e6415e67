import { createHash } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A stand-in for AMap's web-service API v3 on 127.0.0.1 (real HTTP), answering
 * `/v3/geocode/regeo` and `/v3/geocode/geo` in AMap's documented JSON shape — including
 * `[]` for empty fields — from a few known places (GCJ-02). Tests switch its behaviour
 * (`mode`) to make it fail, hang or reset connections, and read what it was asked.
 */
export type FakeAmapMode =
  | { kind: 'ok' }
  | { kind: 'http'; status: number }
  | { kind: 'status0'; infocode: string; info: string }
  | { kind: 'delay'; ms: number }
  | { kind: 'reset' }
  | { kind: 'garbage' };

interface KnownPlace {
  /** GCJ-02 centre (WGS-84 outside mainland China); a regeo point within 0.1° of it lands here. */
  lon: number;
  lat: number;
  /** Default 中国. Empty texts below are answered `[]`, as AMap does abroad. */
  country?: string;
  province: string;
  city: string | null;
  district: string;
  adcode: string;
  township: string;
  formatted: string;
}

export const FAKE_PLACES: KnownPlace[] = [
  { lon: 116.4039, lat: 39.9151, province: '北京市', city: null, district: '东城区', adcode: '110101', township: '东华门街道', formatted: '北京市东城区东华门街道天安门' },
  { lon: 121.4805, lat: 31.2363, province: '上海市', city: null, district: '黄浦区', adcode: '310101', township: '南京东路街道', formatted: '上海市黄浦区南京东路街道人民广场' },
  { lon: 114.0638, lat: 22.5403, province: '广东省', city: '深圳市', district: '福田区', adcode: '440304', township: '莲花街道', formatted: '广东省深圳市福田区莲花街道市民中心' },
  { lon: 113.2707, lat: 23.1294, province: '广东省', city: '广州市', district: '越秀区', adcode: '440104', township: '北京街道', formatted: '广东省广州市越秀区北京街道' },
  { lon: 113.4539, lat: 30.3646, province: '湖北省', city: null, district: '仙桃市', adcode: '429004', township: '沙嘴街道', formatted: '湖北省仙桃市沙嘴街道' },
  { lon: 126.978, lat: 37.566, country: '韩国', province: '', city: null, district: '', adcode: '', township: '', formatted: '韩国首尔特别市中区' },
];

interface KnownAddress {
  /** Matched against the `address` parameter. */
  contains: string;
  /** Default 中国. Empty texts below are answered `[]`, as AMap does abroad. */
  country?: string;
  location: string;
  province: string;
  city: string;
  district: string;
  adcode: string;
  formatted: string;
}

export const FAKE_ADDRESSES: KnownAddress[] = [
  { contains: '长安街1号', location: '116.397499,39.908722', province: '北京市', city: '北京市', district: '东城区', adcode: '110101', formatted: '北京市东城区长安街1号' },
  { contains: '阜通东大街6号', location: '116.480881,39.989410', province: '北京市', city: '北京市', district: '朝阳区', adcode: '110105', formatted: '北京市朝阳区阜通东大街6号' },
  { contains: '深南大道6008号', location: '113.973129,22.540315', province: '广东省', city: '深圳市', district: '南山区', adcode: '440305', formatted: '广东省深圳市南山区深南大道6008号' },
  { contains: '世宗大路172', location: '126.976882,37.572825', country: '韩国', province: '', city: '', district: '', adcode: '', formatted: '韩国首尔特别市钟路区世宗大路172' },
];

/** AMap answers an empty text as `[]`. */
function orEmpty(text: string): string | never[] {
  return text === '' ? [] : text;
}

const EMPTY_REGEO = {
  status: '1',
  info: 'OK',
  infocode: '10000',
  regeocode: {
    addressComponent: {
      city: [],
      province: [],
      adcode: [],
      district: [],
      towncode: [],
      streetNumber: { number: [], direction: [], distance: [], street: [] },
      country: [],
      township: [],
      businessAreas: [[]],
      building: { name: [], type: [] },
      neighborhood: { name: [], type: [] },
      citycode: [],
    },
    formatted_address: [],
  },
};

export class FakeAmap {
  mode: FakeAmapMode = { kind: 'ok' };
  /** Every request received, in order (path, query, and the W3C `traceparent` header if any). */
  readonly requests: { path: string; query: Record<string, string>; traceparent?: string }[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly key = 'fake-amap-key',
    /** When set, requests must carry AMap's `sig` made with this private key. */
    readonly secret?: string,
  ) {}

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('fake AMap not started');
    return `http://127.0.0.1:${address.port}`;
  }

  calls(path?: string): number {
    return path ? this.requests.filter((r) => r.path === path).length : this.requests.length;
  }

  reset(): void {
    this.requests.length = 0;
    this.mode = { kind: 'ok' };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    const traceparent = req.headers.traceparent;
    this.requests.push({ path: url.pathname, query, ...(typeof traceparent === 'string' ? { traceparent } : {}) });
    const mode = this.mode;
    switch (mode.kind) {
      case 'http':
        res.writeHead(mode.status, { 'Content-Type': 'text/html' }).end('<html>gateway error</html>');
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'garbage':
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"1",');
        return;
      case 'status0':
        this.json(res, { status: '0', info: mode.info, infocode: mode.infocode });
        return;
      case 'delay': {
        const timer = setTimeout(() => this.answer(url.pathname, query, res), mode.ms);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      default:
        this.answer(url.pathname, query, res);
    }
  }

  private answer(path: string, query: Record<string, string>, res: ServerResponse): void {
    if (query.key !== this.key) return this.json(res, { status: '0', info: 'INVALID_USER_KEY', infocode: '10001' });
    if (this.secret !== undefined) {
      const { sig, ...rest } = query;
      const text = Object.keys(rest).sort().map((k) => `${k}=${rest[k]}`).join('&') + this.secret;
      if (sig !== createHash('md5').update(text, 'utf8').digest('hex')) {
        return this.json(res, { status: '0', info: 'INVALID_USER_SIGNATURE', infocode: '10007' });
      }
    }
    if (path === '/v3/geocode/regeo') return this.json(res, this.regeo(query.location ?? ''));
    if (path === '/v3/geocode/geo') return this.json(res, this.geo(query.address ?? ''));
    res.writeHead(404).end();
  }

  private regeo(location: string): unknown {
    const [lon, lat] = location.split(',').map(Number) as [number, number];
    const place = FAKE_PLACES.find((p) => Math.abs(p.lon - lon) < 0.1 && Math.abs(p.lat - lat) < 0.1);
    if (!place) return EMPTY_REGEO;
    return {
      status: '1',
      info: 'OK',
      infocode: '10000',
      regeocode: {
        addressComponent: {
          city: place.city ?? [],
          province: orEmpty(place.province),
          adcode: orEmpty(place.adcode),
          district: orEmpty(place.district),
          towncode: place.adcode ? `${place.adcode}001000` : [],
          streetNumber: { number: [], direction: [], distance: [], street: [] },
          country: place.country ?? '中国',
          township: orEmpty(place.township),
          businessAreas: [[]],
          building: { name: [], type: [] },
          neighborhood: { name: [], type: [] },
          citycode: place.adcode ? '010' : [],
        },
        formatted_address: place.formatted,
      },
    };
  }

  private geo(address: string): unknown {
    const hit = FAKE_ADDRESSES.find((a) => address.includes(a.contains));
    if (!hit) return { status: '1', info: 'OK', infocode: '10000', count: '0', geocodes: [] };
    return {
      status: '1',
      info: 'OK',
      infocode: '10000',
      count: '1',
      geocodes: [
        {
          formatted_address: hit.formatted,
          country: hit.country ?? '中国',
          province: orEmpty(hit.province),
          citycode: hit.adcode ? '010' : [],
          city: orEmpty(hit.city),
          district: orEmpty(hit.district),
          township: [],
          neighborhood: { name: [], type: [] },
          building: { name: [], type: [] },
          adcode: orEmpty(hit.adcode),
          street: [],
          number: [],
          location: hit.location,
          level: '门牌号',
        },
      ],
    };
  }

  private json(res: ServerResponse, body: unknown): void {
    res.writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8' }).end(JSON.stringify(body));
  }
}
