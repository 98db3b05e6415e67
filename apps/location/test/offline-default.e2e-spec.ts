/**
 * The embedded default of `pnpm start`: the offline geocoder, the sample cells and the
 * in-process cache — no network, no Redis.
 */
import { MainlandChina } from '../src/geo/mainland-china';
import { GEOCODER } from '../src/geocoder/geocoder.port';
import type { OfflineGeocoder } from '../src/geocoder/offline';
import { type LocationSession, startLocation } from './support/location-session';

describe('embedded default (GEOCODER=offline, no REDIS_URL, sample cells)', () => {
  let s: LocationSession;

  beforeAll(async () => {
    s = await startLocation({});
  });
  afterAll(() => s?.close());

  it('reads the country borders once: the geocoder uses the mainland test of the app', () => {
    const mainland = s.app.get(MainlandChina, { strict: false });
    const geocoder = s.app.get<symbol, OfflineGeocoder>(GEOCODER, { strict: false });
    expect(geocoder.mainland).toBe(mainland);
  });

  it('answers the address of Tiananmen (WGS-84) with lbsStat 1, then 2', async () => {
    const first = await s.client.lbsQuery({ longitude: '116.391275', latitude: '39.907501' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      code: '000',
      resultDesc: 'success',
      lbsStat: '1',
      provinceName: '北京市',
      provinceCode: '110000',
      areaName: '北京市',
      areaCode: '110100',
      standardCode: '110101',
      country: '中国',
    });
    expect(first.body.address).toEqual(expect.stringContaining('东城区'));
    const second = await s.client.lbsQuery({ longitude: '116.391275', latitude: '39.907501' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, resultDesc: 'success (cache)', lbsStat: '2' });
  });

  it('answers a country (and no codes) for a point abroad', async () => {
    const res = await s.client.lbsQuery({ longitude: '2.352200', latitude: '48.856600' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: '000', lbsStat: '1', provinceCode: '', areaCode: '', standardCode: '' });
    expect(typeof res.body.country).toBe('string');
  });

  it('answers 404/099 for the open ocean', async () => {
    const res = await s.client.lbsQuery({ longitude: '-140.000000', latitude: '-40.000000' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: '099', resultDesc: 'nothing found', lbsStat: '0' });
  });

  it('answers coordinates and the county code of an address, then from the cache', async () => {
    const first = await s.client.addressQuery({ city: '上海', address: '浦东新区世纪大道100号' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ code: '000', lbsStat: '1', standardCode: '310115' });
    expect(Object.keys(first.body).sort()).toEqual(['code', 'latitude', 'lbsStat', 'longitude', 'resultDesc', 'standardCode']);
    expect(Number(first.body.longitude)).toBeCloseTo(121.5, 0);
    expect(Number(first.body.latitude)).toBeCloseTo(31.2, 0);
    const second = await s.client.addressQuery({ city: '上海', address: '浦东新区世纪大道100号' });
    expect(second.body).toEqual({ ...first.body, resultDesc: 'success (cache)', lbsStat: '2' });
  });

  it('locates a sample cell and names its place, then from the cache', async () => {
    const first = await s.client.baseStationQuery({ mcc: '460', mnc: '0', lac: '4024', cellid: '10300' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      code: '000',
      lbsStat: '1',
      longitude: '114.057868',
      latitude: '22.543099',
      provinceCode: '440000',
      areaName: '深圳市',
      areaCode: '440300',
      standardCode: '440304',
    });
    const second = await s.client.baseStationQuery({ mcc: '460', mnc: '0', lac: '4024', cellid: '10300' });
    expect(second.body).toEqual({ ...first.body, resultDesc: 'success (cache)', lbsStat: '2' });
  });

  describe('docs/contract.md §13', () => {
    it('refuses a parameter the operation does not take: 400, 099, naming it', async () => {
      const res = await s.client.call('lbsQuery', { longitude: '116.391275', latitude: '39.907501' }, { extra: { 'param.radius': '5' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: '099', resultDesc: 'unknown parameter param.radius', lbsStat: '0' });
    });

    it('answers no null: a field without a value is ""', async () => {
      for (const res of [
        await s.client.lbsQuery({ longitude: '2.352200', latitude: '48.856600' }),
        await s.client.baseStationQuery({ mcc: '460', mnc: '0', lac: '4000', cellid: '10000' }),
        await s.client.addressQuery({ city: '北京市', address: '东城区' }),
      ]) {
        expect(res.status).toBe(200);
        for (const value of Object.values(res.body)) expect(typeof value).toBe('string');
      }
    });

    it.each([
      ['北京市', '北京市'],
      ['杭州', '西湖区'],
      ['上海市', '浦东新区'],
    ])('answers addressQuery %s %s with the county code lbsQuery gives at the answered point', async (city, address) => {
      const forward = await s.client.addressQuery({ city, address });
      expect(forward.status).toBe(200);
      const { longitude, latitude, standardCode } = forward.body;
      expect(standardCode).toMatch(/^\d{6}$/);
      const reverse = await s.client.lbsQuery({ longitude, latitude });
      expect(reverse.body.standardCode).toBe(standardCode);
    });
  });
});
