import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { UpstreamPolicy } from '../../upstream/upstream-policy';
import { NominatimGeocoder, parseNominatimPlace, provinceCodeOfIso } from './nominatim.geocoder';

/** A local stand-in for Nominatim answering jsonv2, recording what it was asked and when. */
function fakeNominatim(answer: (path: string, query: URLSearchParams) => unknown) {
  const seen: { path: string; query: URLSearchParams; headers: IncomingHttpHeaders; at: number }[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ path: url.pathname, query: url.searchParams, headers: req.headers, at: performance.now() });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer(url.pathname, url.searchParams)));
  });
  return {
    seen,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const SHANGHAI = {
  lat: '31.2304',
  lon: '121.4737',
  display_name: '人民广场, 黄浦区, 上海市, 200001, 中国',
  address: {
    square: '人民广场',
    city_district: '黄浦区',
    city: '上海市',
    'ISO3166-2-lvl4': 'CN-SH',
    postcode: '200001',
    country: '中国',
    country_code: 'cn',
  },
};

describe('Nominatim adapter', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('maps ISO 3166-2:CN subdivisions to GB/T 2260 province codes', () => {
    expect(provinceCodeOfIso('CN-SH')).toBe('310000');
    expect(provinceCodeOfIso('CN-GD')).toBe('440000');
    expect(provinceCodeOfIso('CN-44')).toBe('440000');
    expect(provinceCodeOfIso('US-CA')).toBeUndefined();
    expect(provinceCodeOfIso(undefined)).toBeUndefined();
  });

  it('reads a jsonv2 result; "Unable to geocode" is nothing found', () => {
    expect(parseNominatimPlace(SHANGHAI)).toEqual({
      longitude: 121.4737,
      latitude: 31.2304,
      country: '中国',
      provinceName: undefined,
      provinceCode: '310000',
      areaName: '上海市',
      address: '人民广场, 黄浦区, 上海市, 200001, 中国',
    });
    expect(parseNominatimPlace({ error: 'Unable to geocode' })).toBeNull();
  });

  it('sends a User-Agent, format=jsonv2, and spaces its requests by the minimum interval', async () => {
    const fake = fakeNominatim((path) => (path === '/reverse' ? SHANGHAI : [SHANGHAI]));
    const baseUrl = await fake.start();
    const policy = new UpstreamPolicy({ name: 'nominatim', timeoutMs: 3000, retries: 0, breakerFailures: 5, breakerCooldownMs: 1000 });
    const geocoder = new NominatimGeocoder(
      { baseUrl, userAgent: 'geoaccount-location/test (ops@example.com)', language: 'zh-CN', minIntervalMs: 250 },
      policy,
    );
    try {
      const started = performance.now();
      const [a, b, c] = await Promise.all([
        geocoder.reverse(121.4737, 31.2304),
        geocoder.reverse(121.4737, 31.2304),
        geocoder.forward('上海市', '人民广场'),
      ]);
      expect(a).toMatchObject({ longitude: 121.4737, latitude: 31.2304, provinceCode: '310000', country: '中国' });
      expect(b).toEqual(a);
      expect(c).toMatchObject({ longitude: 121.4737, latitude: 31.2304, areaName: '上海市' });
      expect(fake.seen).toHaveLength(3);
      // The limiter gives the sends slots 250 ms apart: the second cannot arrive before 250 ms,
      // the third before 500 ms. (Not the gaps between arrivals: on a loaded machine the
      // process can stall past two slots and then send both at once.)
      const arrivals = fake.seen.map((r) => r.at - started);
      expect(arrivals[1]).toBeGreaterThanOrEqual(250 - 5);
      expect(arrivals[2]).toBeGreaterThanOrEqual(2 * 250 - 5);
      for (const r of fake.seen) {
        expect(r.headers['user-agent']).toBe('geoaccount-location/test (ops@example.com)');
        expect(r.headers['accept-language']).toBe('zh-CN');
        expect(r.query.get('format')).toBe('jsonv2');
      }
      // (sent in slot order, but two sends of one stalled moment may arrive either way round)
      const reverse = fake.seen.filter((r) => r.path === '/reverse');
      const search = fake.seen.filter((r) => r.path === '/search');
      expect([reverse.length, search.length]).toEqual([2, 1]);
      expect(reverse[0]!.query.get('lat')).toBe('31.230400');
      expect(search[0]!.query.get('q')).toBe('上海市 人民广场');
    } finally {
      await geocoder.close();
      await fake.stop();
    }
  });

  it('answers null for an empty search', async () => {
    const fake = fakeNominatim(() => []);
    const baseUrl = await fake.start();
    const policy = new UpstreamPolicy({ name: 'nominatim', timeoutMs: 3000, retries: 0, breakerFailures: 5, breakerCooldownMs: 1000 });
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'ua', language: 'en', minIntervalMs: 0 }, policy);
    try {
      await expect(geocoder.forward('Nowhere', 'no street')).resolves.toBeNull();
    } finally {
      await geocoder.close();
      await fake.stop();
    }
  });
});
