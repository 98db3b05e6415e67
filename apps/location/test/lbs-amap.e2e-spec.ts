/**
 * The three operations end to end: real HTTP, real Redis (REDIS_URL, a key prefix of this
 * run, cleaned), and a fake AMap on 127.0.0.1 answering in AMap's documented shape.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_APP } from '@geoaccount/signing';
import { Redis } from 'ioredis';
import { LATE_MS, printFigure } from '@geoaccount/testing';
import { type MainlandTest, gcj02ToWgs84, wgs84ToGcj02 } from '../src/geo/coord-transform';
import { loadMainlandChina } from '../src/geo/mainland-china.module';
import { lookupKey } from '../src/lbs/lookup-key';
import { FakeAmap } from './support/fake-amap';
import { type LocationSession, REDIS_URL, deletePrefix, keysUnder, runPrefix, startLocation } from './support/location-session';

const TIMEOUT_MS = 600;
const f6 = (x: number) => x.toFixed(6);

/** Tiananmen in WGS-84, as a phone's GPS reports it. */
const TIANANMEN = { longitude: '116.391275', latitude: '39.907501' };

const BEIJING_DONGCHENG = {
  provinceName: '北京市',
  provinceCode: '110000',
  areaName: '北京市',
  areaCode: '110100',
  standardCode: '110101',
  country: '中国',
  address: '北京市东城区东华门街道天安门',
};

describe('location service with the AMap adapter and Redis', () => {
  const amap = new FakeAmap();
  const prefix = runPrefix('amap');
  let s: LocationSession;
  let inMainland: MainlandTest;

  beforeAll(async () => {
    inMainland = (await loadMainlandChina()).contains;
    await amap.start();
    s = await startLocation({
      GEOCODER: 'amap',
      AMAP_KEY: amap.key,
      AMAP_BASE_URL: amap.url,
      REDIS_URL,
      CACHE_KEY_PREFIX: prefix,
      CACHE_TTL_SECONDS: '3600',
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      UPSTREAM_RETRIES: '2',
      // The failure rows below must not open the circuit for the rows after them.
      UPSTREAM_BREAKER_FAILURES: '1000',
    });
  });

  afterAll(async () => {
    await s?.close();
    await amap.stop();
    await deletePrefix(REDIS_URL, prefix);
  });

  beforeEach(() => amap.reset());

  describe('lbsQuery', () => {
    it('answers the address of a point (lbsStat 1), then from the cache (lbsStat 2)', async () => {
      const first = await s.client.lbsQuery(TIANANMEN);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ code: '000', resultDesc: 'success', lbsStat: '1', ...BEIJING_DONGCHENG });
      // The WGS-84 request went to AMap converted to GCJ-02.
      const [gLon, gLat] = wgs84ToGcj02(116.391275, 39.907501, inMainland);
      expect(amap.requests).toEqual([
        { path: '/v3/geocode/regeo', query: { location: `${f6(gLon)},${f6(gLat)}`, extensions: 'base', key: amap.key, output: 'JSON' } },
      ]);

      const second = await s.client.lbsQuery({ longitude: '116.3912750', latitude: '+39.907501' });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ code: '000', resultDesc: 'success (cache)', lbsStat: '2', ...BEIJING_DONGCHENG });
      expect(amap.calls()).toBe(1);

      const keys = await keysUnder(REDIS_URL, prefix);
      // The key of the canonical parameters, whatever their spelling in the request.
      const key = lookupKey({ prefix, source: 'amap', datum: 'wgs84' }, 'lbsQuery', ['116.391275', '39.907501']);
      expect(keys).toContain(key);
      const redis = new Redis(REDIS_URL);
      try {
        const ttl = await redis.ttl(key);
        expect(ttl).toBeGreaterThan(3500);
        expect(ttl).toBeLessThanOrEqual(3600);
      } finally {
        redis.disconnect();
      }
    });

    it('names the prefecture after the county of a province-administered county (xx90xx)', async () => {
      const [lon, lat] = gcj02ToWgs84(113.4539, 30.3646, inMainland);
      const res = await s.client.lbsQuery({ longitude: f6(lon), latitude: f6(lat) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ provinceCode: '420000', areaName: '仙桃市', areaCode: '429004', standardCode: '429004', lbsStat: '1' });
    });

    it('does not put productId, busdepId or merId in the cache key', async () => {
      const point = { longitude: '121.469170', latitude: '31.232960' };
      const a = await s.client.lbsQuery({ ...point, productId: 'P1', busdepId: 'D1', merId: 'M1' });
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '310101', areaCode: '310100' });
      const b = await s.client.lbsQuery({ ...point, productId: 'P2', merId: 'M9' });
      expect(b.status).toBe(200);
      expect(b.body).toMatchObject({ code: '000', lbsStat: '2', standardCode: '310101' });
      const c = await s.client.lbsQuery(point);
      expect(c.body).toMatchObject({ code: '000', lbsStat: '2' });
      expect(amap.calls()).toBe(1);
      const keys = await keysUnder(REDIS_URL, prefix);
      expect(keys.some((k) => /P1|P2|M1|M9|D1/.test(k))).toBe(false);
    });
  });

  describe('addressQuery', () => {
    it('answers coordinates in WGS-84 (converted from AMap GCJ-02) and the county code, then from the cache', async () => {
      const [lon, lat] = gcj02ToWgs84(116.397499, 39.908722, inMainland);
      const expected = { longitude: f6(lon), latitude: f6(lat), standardCode: '110101' };
      const first = await s.client.addressQuery({ city: '北京市', address: '长安街1号', merId: 'M001' });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ code: '000', resultDesc: 'success', lbsStat: '1', ...expected });
      expect(amap.requests[0]).toEqual({ path: '/v3/geocode/geo', query: { address: '长安街1号', city: '北京市', key: amap.key, output: 'JSON' } });
      // Blanks and full-width forms normalise to the same key.
      const second = await s.client.addressQuery({ city: ' 北京市 ', address: '长安街１号' });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ code: '000', resultDesc: 'success (cache)', lbsStat: '2', ...expected });
      expect(amap.calls()).toBe(1);
    });

    it('answers 404/099 when nothing matches, and does not cache it', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await s.client.addressQuery({ city: '北京市', address: '无此地址999号' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: '099', resultDesc: 'nothing found', lbsStat: '0' });
      }
      expect(amap.calls('/v3/geocode/geo')).toBe(2);
    });
  });

  describe('baseStationQuery', () => {
    it('locates a cell of the shipped sample (WGS-84) and reverse-geocodes it, then from the cache', async () => {
      const expected = { longitude: '116.391275', latitude: '39.907501', ...BEIJING_DONGCHENG };
      const first = await s.client.baseStationQuery({ mcc: '460', mnc: '0', lac: '4000', cellid: '10000', productId: 'P7' });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ code: '000', resultDesc: 'success', lbsStat: '1', ...expected });
      const second = await s.client.baseStationQuery({ mcc: '460', mnc: '00', lac: '04000', cellid: '10000' });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ code: '000', resultDesc: 'success (cache)', lbsStat: '2', ...expected });
      expect(amap.calls()).toBe(1);
    });

    it('answers a cell whose place AMap does not know with its coordinates and empty address fields (no null, docs/contract.md §13)', async () => {
      // Urumqi's centre cell: no fake AMap place there.
      const res = await s.client.baseStationQuery({ mcc: '460', mnc: '0', lac: '4136', cellid: '11700' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        code: '000',
        resultDesc: 'success',
        lbsStat: '1',
        longitude: '87.616848',
        latitude: '43.825592',
        provinceName: '',
        provinceCode: '',
        areaName: '',
        areaCode: '',
        standardCode: '',
        country: '',
        address: '',
      });
    });

    it('answers 404/099 for an unknown cell without calling the geocoder', async () => {
      const res = await s.client.baseStationQuery({ mcc: '460', mnc: '0', lac: '1', cellid: '99999999999999999999' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: '099', resultDesc: 'nothing found', lbsStat: '0' });
      expect(amap.calls()).toBe(0);
    });
  });

  describe('docs/contract.md §8 failures', () => {
    it('401/100 for an unknown userToken, a bad, missing or stale signature', async () => {
      const p = { ...TIANANMEN, merId: 'M1' };
      const unknown = await s.client.call('lbsQuery', p, { userToken: 'app-0000000000000000' });
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual({ code: '100', resultDesc: 'unknown userToken', lbsStat: '0' });
      const noToken = await s.client.call('lbsQuery', p, { userToken: null });
      expect(noToken.status).toBe(401);
      expect(noToken.body).toEqual({ code: '100', resultDesc: 'unknown userToken', lbsStat: '0' });
      const bad = await s.client.call('lbsQuery', p, { signature: '0'.repeat(64) });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ code: '100', resultDesc: 'bad signature', lbsStat: '0' });
      const missing = await s.client.call('lbsQuery', p, { signature: null });
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ code: '100', resultDesc: 'bad signature', lbsStat: '0' });
      // Signed for merId M1, sent with M2: the business parameters are signed too.
      const moved = await s.client.call('lbsQuery', p, { extra: { 'param.merId': 'M2' } });
      expect(moved.status).toBe(401);
      expect(moved.body).toEqual({ code: '100', resultDesc: 'bad signature', lbsStat: '0' });
      // Signed for one address, sent with another.
      const replay = await s.client.call('addressQuery', { city: '北京市', address: '长安街1号' }, { extra: { 'param.address': '长安街2号' } });
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual({ code: '100', resultDesc: 'bad signature', lbsStat: '0' });
      expect(amap.calls()).toBe(0);
    });

    it.each([
      ['lbsQuery', { latitude: '39.9' }, 'missing param.longitude'],
      ['lbsQuery', { longitude: '', latitude: '39.9' }, 'missing param.longitude'],
      ['lbsQuery', { longitude: '116.39700000000000001', latitude: '39.9' }, 'too long param.longitude'],
      ['lbsQuery', { longitude: '180.000001', latitude: '39.9' }, 'invalid param.longitude'],
      ['lbsQuery', { longitude: '116.397', latitude: '-90.5' }, 'invalid param.latitude'],
      ['lbsQuery', { longitude: '116,397', latitude: '39.9' }, 'invalid param.longitude'],
      ['lbsQuery', { longitude: '1e2', latitude: '39.9' }, 'invalid param.longitude'],
      ['lbsQuery', { ...TIANANMEN, productId: 'P'.repeat(21) }, 'too long param.productId'],
      ['lbsQuery', { ...TIANANMEN, busdepId: 'D'.repeat(21) }, 'too long param.busdepId'],
      ['lbsQuery', { ...TIANANMEN, merId: 'M'.repeat(21) }, 'too long param.merId'],
      ['addressQuery', { address: '长安街1号' }, 'missing param.city'],
      ['addressQuery', { city: '   ', address: '长安街1号' }, 'missing param.city'],
      ['addressQuery', { city: '北京市', address: '街'.repeat(256) }, 'too long param.address'],
      ['addressQuery', { city: '城'.repeat(256), address: '长安街1号' }, 'too long param.city'],
      ['baseStationQuery', { mcc: '460', mnc: '0', lac: '4000' }, 'missing param.cellid'],
      ['baseStationQuery', { mcc: '46O', mnc: '0', lac: '4000', cellid: '1' }, 'invalid param.mcc'],
      ['baseStationQuery', { mcc: '460', mnc: '-1', lac: '4000', cellid: '1' }, 'invalid param.mnc'],
      ['baseStationQuery', { mcc: '460', mnc: '0', lac: '1'.repeat(21), cellid: '1' }, 'too long param.lac'],
    ] as const)('400/099 for %s %j: "%s"', async (op, params, message) => {
      const res = await s.client.call(op, params);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: '099', resultDesc: message, lbsStat: '0' });
      expect(amap.calls()).toBe(0);
    });

    it('400/099 for a repeated parameter', async () => {
      const res = await fetch(`${s.url}/lbsapi/api/lbsQuery?param.longitude=1&param.longitude=2&param.latitude=3&userToken=${DEMO_APP.appToken}&signature=${'0'.repeat(64)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: '099', resultDesc: 'repeated param.longitude', lbsStat: '0' });
    });

    it('404/099 where AMap knows nothing (its "[]" fields), not cached', async () => {
      const ocean = { longitude: '150.000000', latitude: '10.000000' };
      for (let i = 0; i < 2; i++) {
        const res = await s.client.lbsQuery(ocean);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: '099', resultDesc: 'nothing found', lbsStat: '0' });
      }
      // Outside mainland China: sent unshifted.
      expect(amap.requests.map((r) => r.query.location)).toEqual(['150.000000,10.000000', '150.000000,10.000000']);
      const key = lookupKey({ prefix, source: 'amap', datum: 'wgs84' }, 'lbsQuery', ['150.000000', '10.000000']);
      expect(await keysUnder(REDIS_URL, key)).toEqual([]);
    });

    it('404/099 for an unknown operation', async () => {
      const res = await fetch(`${s.url}/lbsapi/api/cellQuery`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: '099', resultDesc: 'no such operation', lbsStat: '0' });
    });

    it('503/099 when AMap fails with 5xx, after retrying, and nothing is cached', async () => {
      amap.mode = { kind: 'http', status: 502 };
      const point = { longitude: '116.400000', latitude: '39.910000' };
      const res = await s.client.lbsQuery(point);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: '099', resultDesc: 'upstream unavailable', lbsStat: '0' });
      expect(amap.calls()).toBe(3); // the first attempt and UPSTREAM_RETRIES=2
      amap.mode = { kind: 'ok' };
      const after = await s.client.lbsQuery(point);
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '110101' });
    });

    it.each([
      ['INVALID_USER_KEY', '10001'],
      ['DAILY_QUERY_OVER_LIMIT', '10003'],
      ['ACCESS_TOO_FREQUENT', '10004'],
      ['INVALID_USER_SIGNATURE', '10007'],
    ])('503/099 for AMap status "0" %s (%s), without retrying', async (info, infocode) => {
      amap.mode = { kind: 'status0', info, infocode };
      const res = await s.client.addressQuery({ city: '北京市', address: '阜通东大街6号' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: '099', resultDesc: 'upstream unavailable', lbsStat: '0' });
      expect(amap.calls()).toBe(1);
    });

    it('503/099 for a server-busy status "0" (10016) after retrying it', async () => {
      amap.mode = { kind: 'status0', info: 'SERVER_IS_BUSY', infocode: '10016' };
      const res = await s.client.addressQuery({ city: '北京市', address: '阜通东大街6号' });
      expect(res.status).toBe(503);
      expect(amap.calls()).toBe(3);
    });

    it.each(['reset', 'garbage'] as const)('503/099 when AMap %s', async (kind) => {
      amap.mode = { kind };
      const res = await s.client.addressQuery({ city: '北京市', address: '阜通东大街6号' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: '099', resultDesc: 'upstream unavailable', lbsStat: '0' });
    });

    it('503/099 within UPSTREAM_TIMEOUT_MS when AMap hangs, and nothing is cached', async () => {
      amap.mode = { kind: 'delay', ms: 60_000 };
      const point = { longitude: '113.264400', latitude: '23.129100' };
      const started = performance.now();
      const res = await s.client.lbsQuery(point);
      const took = performance.now() - started;
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: '099', resultDesc: 'upstream timed out', lbsStat: '0' });
      printFigure(`AMap hanging: answered after (limit ${TIMEOUT_MS} ms)`, took);
      // not before the limit; late only by what a loaded machine delays a timer, long before AMap would answer
      expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(took).toBeLessThan(TIMEOUT_MS + LATE_MS);
      const key = lookupKey({ prefix, source: 'amap', datum: 'wgs84' }, 'lbsQuery', ['113.264400', '23.129100']);
      expect(await keysUnder(REDIS_URL, key)).toEqual([]);
      amap.mode = { kind: 'ok' };
      const after = await s.client.lbsQuery(point);
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '440104', areaName: '广州市', areaCode: '440100' });
      // The same key holds the answer once there is one.
      expect(await keysUnder(REDIS_URL, key)).toEqual([key]);
    });
  });

  it('calls AMap once for 50 concurrent identical misses', async () => {
    amap.mode = { kind: 'delay', ms: 150 };
    const point = { longitude: '114.057868', latitude: '22.543099' };
    const answers = await Promise.all(Array.from({ length: 50 }, () => s.client.lbsQuery(point)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ code: '000', standardCode: '440304', areaName: '深圳市', provinceName: '广东省' });
      expect(['1', '2']).toContain(res.body.lbsStat);
    }
    expect(amap.calls('/v3/geocode/regeo')).toBe(1);
  });

  it('logs one accounting line per request, without the signature', async () => {
    const before = s.logs.of('Accounting').length;
    const ok = await s.client.lbsQuery({ ...TIANANMEN, productId: 'PROD-9', busdepId: 'DEP-3', merId: 'MER-1' });
    const denied = await s.client.call('lbsQuery', { ...TIANANMEN, merId: 'MER-2' }, { signature: 'f'.repeat(64) });
    expect(ok.status).toBe(200);
    expect(denied.status).toBe(401);
    await sleep(20);
    const lines = s.logs.of('Accounting').slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      msg: 'lbs request',
      op: 'lbsQuery',
      app: DEMO_APP.appToken,
      productId: 'PROD-9',
      busdepId: 'DEP-3',
      merId: 'MER-1',
      code: '000',
      lbsStat: ok.body.lbsStat,
      status: 200,
    });
    expect(lines[1]).toMatchObject({ op: 'lbsQuery', app: null, merId: 'MER-2', productId: null, code: '100', lbsStat: '0', status: 401 });
    const text = JSON.stringify(s.logs.lines);
    expect(text).not.toContain('f'.repeat(64));
    expect(text).not.toContain(DEMO_APP.secret);
    expect(text).not.toContain('signature=');
  });
});

describe('AMap digital signature and the circuit breaker', () => {
  const amap = new FakeAmap('signed-key', 'amap-private-key');
  const sessions: LocationSession[] = [];
  const prefix = runPrefix('amap-sig');

  beforeAll(() => amap.start());
  afterAll(async () => {
    await Promise.all(sessions.map((x) => x.close()));
    await amap.stop();
    await deletePrefix(REDIS_URL, prefix);
  });

  async function boot(env: Record<string, string>): Promise<LocationSession> {
    // A slow shared Redis must not turn the cached answer the test relies on into a miss.
    const redis = { REDIS_URL, CACHE_KEY_PREFIX: prefix, REDIS_COMMAND_TIMEOUT_MS: '5000' };
    const session = await startLocation({ GEOCODER: 'amap', AMAP_KEY: amap.key, AMAP_BASE_URL: amap.url, ...redis, ...env });
    sessions.push(session);
    return session;
  }

  it('signs every request with sig when AMAP_SECRET is set', async () => {
    const signed = await boot({ AMAP_SECRET: 'amap-private-key' });
    const res = await signed.client.addressQuery({ city: '深圳市', address: '深南大道6008号' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '440305' });
    expect(amap.requests.at(-1)?.query.sig).toMatch(/^[0-9a-f]{32}$/);

    const wrong = await boot({ AMAP_SECRET: 'not-the-key' });
    const refused = await wrong.client.addressQuery({ city: '深圳市', address: '深南大道6008号 ' });
    expect(refused.status).toBe(200); // same normalised key: served from the cache
    const fresh = await wrong.client.addressQuery({ city: '北京市', address: '阜通东大街6号' });
    expect(fresh.status).toBe(503);
    expect(fresh.body).toEqual({ code: '099', resultDesc: 'upstream unavailable', lbsStat: '0' });
  });

  it('opens the circuit after consecutive failures and closes it after the cooldown', async () => {
    const s = await boot({ AMAP_SECRET: 'amap-private-key', UPSTREAM_RETRIES: '0', UPSTREAM_BREAKER_FAILURES: '2', UPSTREAM_BREAKER_COOLDOWN_MS: '400' });
    const logged = s.logs.of('Upstream').length;
    amap.reset();
    amap.mode = { kind: 'http', status: 500 };
    const points = ['116.41', '116.42', '116.43'].map((longitude) => ({ longitude, latitude: '39.91' }));
    for (const point of points) {
      const res = await s.client.lbsQuery(point);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: '099', resultDesc: 'upstream unavailable', lbsStat: '0' });
    }
    expect(amap.calls()).toBe(2); // the third was refused by the open circuit
    amap.mode = { kind: 'ok' };
    await sleep(450);
    const res = await s.client.lbsQuery(points[2]!);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '110101' });
    const upstreamLog = s.logs.of('Upstream').slice(logged);
    expect(upstreamLog.map((l) => [l.level, l.msg])).toEqual([
      [40, 'amap: circuit opened after 2 consecutive failures (last: amap answered HTTP 500); calls refused for 400 ms'],
      [30, 'amap: circuit closed, upstream answering again'],
    ]);
  });
});

describe('COORD_SYSTEM=gcj02', () => {
  const amap = new FakeAmap();
  let s: LocationSession;

  beforeAll(async () => {
    await amap.start();
    s = await startLocation({ GEOCODER: 'amap', AMAP_KEY: amap.key, AMAP_BASE_URL: amap.url, COORD_SYSTEM: 'gcj02' });
  });
  afterAll(async () => {
    await s?.close();
    await amap.stop();
  });

  it('passes GCJ-02 coordinates to AMap unchanged and answers in GCJ-02, from an in-process cache', async () => {
    const res = await s.client.lbsQuery({ longitude: '116.397499', latitude: '39.908722' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '110101' });
    expect(amap.requests[0]?.query.location).toBe('116.397499,39.908722');
    const again = await s.client.lbsQuery({ longitude: '116.397499', latitude: '39.908722' });
    expect(again.body).toMatchObject({ code: '000', lbsStat: '2' });

    const found = await s.client.addressQuery({ city: '北京市', address: '阜通东大街6号' });
    expect(found.body).toEqual({ code: '000', resultDesc: 'success', lbsStat: '1', longitude: '116.480881', latitude: '39.989410', standardCode: '110105' });
  });
});
