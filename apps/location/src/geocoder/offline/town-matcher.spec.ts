import { DivisionTable } from './divisions';
import { TownMatcher, encodeTowns } from './town-matcher';

const table = new DivisionTable({
  provinces: [['440000', '广东省', 113.3, 23.1]],
  prefectures: [
    ['440100', '广州市', 113.3, 23.1],
    ['440300', '深圳市', 114.05, 22.54],
  ],
  counties: [
    ['440104', '越秀区', 113.27, 23.13],
    ['440304', '福田区', 114.05, 22.54],
    ['440305', '南山区', 113.93, 22.53],
  ],
});
const [yuexiu, futian, nanshan] = table.counties;
const shenzhen = table.get('440300')!;
const guangdong = table.get('440000')!;

const towns = new TownMatcher(
  encodeTowns([
    { name: '粤海街道', county: 2 },
    { name: '南头街道', county: 2 },
    { name: '华强北街道', county: 1 },
    { name: '中山街道', county: 1 },
    { name: '北京街道', county: 0 },
    { name: '城关镇', county: 2 },
    { name: '沙河街道', county: 0 },
    { name: '沙河街道', county: 2 },
  ]),
  table.counties,
);

describe('TownMatcher', () => {
  it('stores stems once, without the generic ones', () => {
    expect(towns.size).toBe(6);
  });

  it('takes a city down to the county of the town named', () => {
    expect(towns.countyIn('粤海街道科技园', shenzhen)).toBe(nanshan);
    expect(towns.countyIn('华强北', shenzhen)).toBe(futian);
    expect(towns.countyIn('南头 粤海', guangdong)).toBe(nanshan);
  });

  it('stays out of another city', () => {
    expect(towns.countyIn('北京街道', shenzhen)).toBeUndefined();
    expect(towns.countyIn('北京街道', guangdong)).toBe(yuexiu);
  });

  it('gives up when the towns named lie in different counties', () => {
    expect(towns.countyIn('粤海街道华强北', shenzhen)).toBeUndefined();
    // 沙河: one in 广州, one in 深圳.
    expect(towns.countyIn('沙河', guangdong)).toBeUndefined();
    expect(towns.countyIn('沙河', shenzhen)).toBe(nanshan);
  });

  it('reads a stem before 路/街 as a street, unless a town suffix follows', () => {
    expect(towns.countyIn('中山路1号', shenzhen)).toBeUndefined();
    expect(towns.countyIn('中山街道', shenzhen)).toBe(futian);
    expect(towns.countyIn('城关', shenzhen)).toBeUndefined();
  });
});
