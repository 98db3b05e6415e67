/**
 * COORD_SYSTEM=wgs84 with a GCJ-02 upstream (the fake AMap, real HTTP): coordinates are
 * shifted on the way to AMap and back only in mainland China — not in Seoul, Hong Kong or
 * Taipei, which a bounding box of China would take in — for the three operations.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MainlandTest, gcj02ToWgs84, wgs84ToGcj02 } from '../src/geo/coord-transform';
import { loadMainlandChina } from '../src/geo/mainland-china.module';
import { FakeAmap } from './support/fake-amap';
import { type LocationSession, startLocation } from './support/location-session';

const f6 = (x: number) => x.toFixed(6);
const regeo = (location: string, key: string) => ({ path: '/v3/geocode/regeo', query: { location, extensions: 'base', key, output: 'JSON' } });

const CELLS = [
  'radio,mcc,net,area,cell,unit,lon,lat,range,samples,changeable,created,updated,averageSignal',
  // Seoul City Hall (WGS-84)
  'LTE,450,5,4660,70001234,0,126.978000,37.566000,800,25,1,1600000000,1700000000,-85',
  // Tiananmen (WGS-84)
  'GSM,460,0,4000,10000,0,116.391275,39.907501,1561,27,1,1718275874,1724671268,0',
].join('\n');

describe('COORD_SYSTEM=wgs84 with the AMap adapter: the shift applies in mainland China only', () => {
  const amap = new FakeAmap();
  const dir = mkdtempSync(join(tmpdir(), 'lbs-datum-'));
  let s: LocationSession;
  let inMainland: MainlandTest;

  beforeAll(async () => {
    inMainland = (await loadMainlandChina()).contains;
    await amap.start();
    const cells = join(dir, 'cells.csv');
    writeFileSync(cells, CELLS);
    s = await startLocation({ COORD_SYSTEM: 'wgs84', GEOCODER: 'amap', AMAP_KEY: amap.key, AMAP_BASE_URL: amap.url, CELL_TOWERS_FILE: cells });
  });

  afterAll(async () => {
    await s?.close();
    await amap.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => amap.reset());

  it('sends a Seoul point to AMap unshifted', async () => {
    const res = await s.client.lbsQuery({ longitude: '126.978', latitude: '37.566' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: '000',
      resultDesc: 'success',
      lbsStat: '1',
      provinceName: '',
      provinceCode: '',
      areaName: '',
      areaCode: '',
      standardCode: '',
      country: '韩国',
      address: '韩国首尔特别市中区',
    });
    expect(amap.requests).toEqual([regeo('126.978000,37.566000', amap.key)]);
  });

  it('sends a Beijing point to AMap shifted to GCJ-02', async () => {
    const res = await s.client.lbsQuery({ longitude: '116.391275', latitude: '39.907501' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: '000', lbsStat: '1', provinceCode: '110000', areaCode: '110100', standardCode: '110101', country: '中国' });
    const [gLon, gLat] = wgs84ToGcj02(116.391275, 39.907501, inMainland);
    // Tiananmen moves about 530 m east and 155 m north.
    expect(gLon - 116.391275).toBeGreaterThan(0.005);
    expect(gLat - 39.907501).toBeGreaterThan(0.001);
    expect(amap.requests).toEqual([regeo(`${f6(gLon)},${f6(gLat)}`, amap.key)]);
  });

  it.each([
    ['Hong Kong', '114.169', '22.319'],
    ['Macao', '113.543', '22.199'],
    ['Taipei', '121.565', '25.033'],
    ['Hanoi', '105.854', '21.028'],
  ])('sends a %s point to AMap unshifted', async (_name, longitude, latitude) => {
    const res = await s.client.lbsQuery({ longitude, latitude });
    // The fake AMap knows nothing there.
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: '099', resultDesc: 'nothing found', lbsStat: '0' });
    expect(amap.requests).toEqual([regeo(`${f6(Number(longitude))},${f6(Number(latitude))}`, amap.key)]);
  });

  it('answers AMap coordinates in Seoul as they are, and shifts Beijing ones back to WGS-84', async () => {
    const seoul = await s.client.addressQuery({ city: '首尔', address: '世宗大路172' });
    expect(seoul.status).toBe(200);
    expect(seoul.body).toEqual({ code: '000', resultDesc: 'success', lbsStat: '1', longitude: '126.976882', latitude: '37.572825', standardCode: '' });

    const beijing = await s.client.addressQuery({ city: '北京市', address: '长安街1号' });
    expect(beijing.status).toBe(200);
    const [lon, lat] = gcj02ToWgs84(116.397499, 39.908722, inMainland);
    expect(lon).toBeLessThan(116.393);
    expect(beijing.body).toEqual({ code: '000', resultDesc: 'success', lbsStat: '1', longitude: f6(lon), latitude: f6(lat), standardCode: '110101' });
  });

  it('looks a Seoul cell up unshifted and a Beijing cell shifted', async () => {
    const seoul = await s.client.baseStationQuery({ mcc: '450', mnc: '5', lac: '4660', cellid: '70001234' });
    expect(seoul.status).toBe(200);
    expect(seoul.body).toMatchObject({ code: '000', lbsStat: '1', longitude: '126.978000', latitude: '37.566000', country: '韩国', standardCode: '' });
    expect(amap.requests).toEqual([regeo('126.978000,37.566000', amap.key)]);

    amap.reset();
    const beijing = await s.client.baseStationQuery({ mcc: '460', mnc: '0', lac: '4000', cellid: '10000' });
    expect(beijing.status).toBe(200);
    expect(beijing.body).toMatchObject({ code: '000', lbsStat: '1', longitude: '116.391275', latitude: '39.907501', standardCode: '110101' });
    const [gLon, gLat] = wgs84ToGcj02(116.391275, 39.907501, inMainland);
    expect(amap.requests).toEqual([regeo(`${f6(gLon)},${f6(gLat)}`, amap.key)]);
  });
});
