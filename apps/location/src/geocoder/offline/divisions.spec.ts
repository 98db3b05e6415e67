import { DivisionTable, isMunicipality, isProvinceAdministered, isRegion } from './divisions';

const table = new DivisionTable({
  provinces: [
    ['110000', '北京市', 116.41, 39.9],
    ['420000', '湖北省', 114.3, 30.6],
    ['440000', '广东省', 113.3, 23.1],
    ['500000', '重庆市', 106.5, 29.5],
    ['810000', '香港特别行政区', 114.17, 22.3],
  ],
  prefectures: [
    ['420100', '武汉市', 114.3, 30.6],
    ['440300', '深圳市', 114.05, 22.54],
    ['441900', '东莞市', 113.75, 23.02],
  ],
  counties: [
    ['110101', '东城区', 116.41, 39.9],
    ['420106', '武昌区', 114.3, 30.55],
    ['429004', '仙桃市', 113.45, 30.36],
    ['440305', '南山区', 113.93, 22.53],
    ['441900', '东莞市', 113.75, 23.02],
    ['500229', '城口县', 108.66, 31.95],
    ['810000', '油尖旺区', 114.17, 22.31],
  ],
});

const county = (code: string) => table.counties.find((c) => c.code === code)!;

describe('division rules', () => {
  it('classifies codes', () => {
    expect(isMunicipality('500229')).toBe(true);
    expect(isMunicipality('440305')).toBe(false);
    expect(isProvinceAdministered('429004')).toBe(true);
    expect(isProvinceAdministered('420106')).toBe(false);
    expect(isRegion('810000')).toBe(true);
  });

  it('a county: province code[0..2]+0000, prefecture code[0..4]+00', () => {
    expect(table.describe(county('440305'))).toEqual({
      country: '中国',
      provinceName: '广东省',
      provinceCode: '440000',
      areaName: '深圳市',
      areaCode: '440300',
      standardCode: '440305',
      address: '广东省深圳市南山区',
    });
  });

  it('a municipality is its own area (xx0100), also for 重庆 counties (5002xx)', () => {
    expect(table.describe(county('110101'))).toMatchObject({
      areaName: '北京市',
      areaCode: '110100',
      standardCode: '110101',
      address: '北京市东城区',
    });
    expect(table.describe(county('500229'))).toMatchObject({
      areaName: '重庆市',
      areaCode: '500100',
      standardCode: '500229',
      address: '重庆市城口县',
    });
    expect(table.describe(table.get('110000')!)).toMatchObject({ provinceCode: '110000', areaCode: '110100', address: '北京市' });
  });

  it('a province-administered county (xx90xx) is its own area', () => {
    expect(table.describe(county('429004'))).toEqual({
      country: '中国',
      provinceName: '湖北省',
      provinceCode: '420000',
      areaName: '仙桃市',
      areaCode: '429004',
      standardCode: '429004',
      address: '湖北省仙桃市',
    });
  });

  it('a prefecture-level city without counties answers its own code at both levels', () => {
    expect(table.describe(county('441900'))).toMatchObject({
      areaName: '东莞市',
      areaCode: '441900',
      standardCode: '441900',
      address: '广东省东莞市',
    });
  });

  it('a prefecture alone carries no county code', () => {
    const fields = table.describe(table.get('420100')!);
    expect(fields).toMatchObject({ areaName: '武汉市', areaCode: '420100', address: '湖北省武汉市' });
    expect(fields.standardCode).toBeUndefined();
  });

  it('Hong Kong: region code and district name, no county code', () => {
    expect(table.describe(county('810000'))).toEqual({
      country: '中国',
      provinceName: '香港特别行政区',
      provinceCode: '810000',
      areaName: '油尖旺区',
      address: '香港特别行政区油尖旺区',
    });
  });
});
