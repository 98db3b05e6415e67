import { UpstreamUnavailableError } from '../../upstream/upstream-errors';
import { TransientUpstreamError } from '../../upstream/upstream-policy';
import { amapSignature, amapText, checkAmapStatus, parseGeo, parseRegeo } from './amap.geocoder';

describe('AMap adapter parsing', () => {
  it('signs the sorted parameters with the private key appended (MD5)', () => {
    // md5("address=北京市朝阳区阜通东大街6号&city=北京&key=0123abc&output=JSONsecret-xyz")
    const params = { output: 'JSON', key: '0123abc', city: '北京', address: '北京市朝阳区阜通东大街6号' };
    expect(amapSignature(params, 'secret-xyz')).toBe('2f9da95c86b03633d63858eecf2355af');
  });

  it('reads "[]" as an empty field', () => {
    expect(amapText([])).toBeUndefined();
    expect(amapText('')).toBeUndefined();
    expect(amapText(' 东城区 ')).toBe('东城区');
  });

  it('maps status and infocodes: no result, transient, unavailable', () => {
    expect(checkAmapStatus({ status: '1', info: 'OK', infocode: '10000' })).toBe('ok');
    expect(checkAmapStatus({ status: '0', info: 'OUT_OF_SERVICE', infocode: '20800' })).toBe('no-result');
    expect(() => checkAmapStatus({ status: '0', info: 'SERVER_IS_BUSY', infocode: '10016' })).toThrow(TransientUpstreamError);
    expect(() => checkAmapStatus({ status: '0', info: 'ENGINE_RESPONSE_DATA_ERROR', infocode: '30001' })).toThrow(TransientUpstreamError);
    expect(() => checkAmapStatus({ status: '0', info: 'INVALID_USER_KEY', infocode: '10001' })).toThrow(UpstreamUnavailableError);
    expect(() => checkAmapStatus({ status: '0', info: 'DAILY_QUERY_OVER_LIMIT', infocode: '10003' })).toThrow(
      'amap: DAILY_QUERY_OVER_LIMIT (10003)',
    );
    expect(() => checkAmapStatus({ unexpected: true })).toThrow(UpstreamUnavailableError);
  });

  it('derives province and prefecture codes from the adcode; a municipality is its own area', () => {
    const body = {
      status: '1',
      regeocode: {
        formatted_address: '北京市东城区东华门街道天安门',
        addressComponent: { country: '中国', province: '北京市', city: [], district: '东城区', adcode: '110101', township: '东华门街道' },
      },
    };
    expect(parseRegeo(body, 116.3975, 39.9089)).toEqual({
      longitude: 116.3975,
      latitude: 39.9089,
      country: '中国',
      provinceName: '北京市',
      provinceCode: '110000',
      areaName: '北京市',
      areaCode: '110100',
      standardCode: '110101',
      address: '北京市东城区东华门街道天安门',
    });
  });

  it('keeps Chongqing counties under the municipality (500100) and xx90xx units as their own area', () => {
    const chongqing = {
      regeocode: {
        formatted_address: '重庆市巫山县',
        addressComponent: { province: '重庆市', city: [], district: '巫山县', adcode: '500237' },
      },
    };
    expect(parseRegeo(chongqing, 0, 0)).toMatchObject({
      areaName: '重庆市',
      areaCode: '500100',
      standardCode: '500237',
      provinceCode: '500000',
    });
    const xiantao = {
      regeocode: {
        formatted_address: '湖北省仙桃市',
        addressComponent: { province: '湖北省', city: [], district: '仙桃市', adcode: '429004' },
      },
    };
    expect(parseRegeo(xiantao, 0, 0)).toMatchObject({
      areaName: '仙桃市',
      areaCode: '429004',
      standardCode: '429004',
      provinceCode: '420000',
    });
  });

  it('answers null where AMap knows nothing, and a country-only place where it knows only that', () => {
    const empty = {
      regeocode: { formatted_address: [], addressComponent: { country: [], province: [], city: [], district: [], adcode: [] } },
    };
    expect(parseRegeo(empty, 150, 10)).toBeNull();
    const abroad = { regeocode: { formatted_address: [], addressComponent: { country: '日本', province: [], adcode: [] } } };
    expect(parseRegeo(abroad, 139.7, 35.7)).toEqual({ longitude: 139.7, latitude: 35.7, country: '日本', address: undefined });
  });

  it('reads the first geocode of /geocode/geo, null when there is none', () => {
    expect(parseGeo({ status: '1', count: '0', geocodes: [] })).toBeNull();
    const body = {
      count: '1',
      geocodes: [
        {
          formatted_address: '广东省深圳市南山区深南大道6008号',
          country: '中国',
          province: '广东省',
          city: '深圳市',
          district: '南山区',
          adcode: '440305',
          location: '113.973129,22.540315',
        },
      ],
    };
    expect(parseGeo(body)).toEqual({
      longitude: 113.973129,
      latitude: 22.540315,
      country: '中国',
      provinceName: '广东省',
      provinceCode: '440000',
      areaName: '深圳市',
      areaCode: '440300',
      standardCode: '440305',
      address: '广东省深圳市南山区深南大道6008号',
    });
    expect(() => parseGeo({ geocodes: [{ location: [] }] })).toThrow(UpstreamUnavailableError);
  });

  it('marks an answer at the level of the city named by the city text as the city alone', () => {
    const city = (level: string) => ({
      geocodes: [{ province: '浙江省', city: '杭州市', adcode: '330100', location: '120.155070,30.274084', level }],
    });
    expect(parseGeo(city('市'), '杭州市')?.fromCityAlone).toBe(true);
    expect(parseGeo(city('市'), '杭州')?.fromCityAlone).toBe(true);
    expect(parseGeo(city('省'), '浙江')?.fromCityAlone).toBe(true);
    // A province in the city text, its city in the address: the address decided.
    expect(parseGeo(city('市'), '浙江')?.fromCityAlone).toBeUndefined();
    expect(parseGeo(city('门牌号'), '杭州市')?.fromCityAlone).toBeUndefined();
  });
});
