import { DivisionTable } from './divisions';
import { NameMatcher } from './name-matcher';

const table = new DivisionTable({
  provinces: [
    ['140000', '山西省', 112.5, 37.8],
    ['220000', '吉林省', 125.3, 43.9],
    ['320000', '江苏省', 118.8, 32.1],
    ['350000', '福建省', 119.3, 26.1],
    ['440000', '广东省', 113.3, 23.1],
  ],
  prefectures: [
    ['140300', '阳泉市', 113.6, 37.9],
    ['220100', '长春市', 125.3, 43.9],
    ['220200', '吉林市', 126.5, 43.8],
    ['320100', '南京市', 118.8, 32.1],
    ['320300', '徐州市', 117.2, 34.3],
    ['350100', '福州市', 119.3, 26.1],
    ['442000', '中山市', 113.4, 22.5],
  ],
  counties: [
    ['140302', '城区', 113.6, 37.9],
    ['220104', '朝阳区', 125.3, 43.8],
    ['320106', '鼓楼区', 118.8, 32.1],
    ['320302', '鼓楼区', 117.2, 34.3],
    ['350102', '鼓楼区', 119.3, 26.1],
    ['442000', '中山市', 113.4, 22.5],
  ],
});
const matcher = new NameMatcher([...table.provinces, ...table.prefectures, ...table.counties]);
const code = (city: string, address: string) => matcher.match(city, address)?.code;

describe('NameMatcher', () => {
  it('finds full and short names, longest first, without overlaps', () => {
    const mentions = matcher.mentions('江苏省南京鼓楼区');
    expect(mentions.map((m) => m.text)).toEqual(['江苏省', '南京', '鼓楼区']);
  });

  it('narrows a same-named county by the city', () => {
    expect(code('南京', '鼓楼区')).toBe('320106');
    expect(code('徐州市', '鼓楼区')).toBe('320302');
    expect(code('福州市', '鼓楼区')).toBe('350102');
  });

  it('without a city, a prefecture named in the address decides', () => {
    expect(code('', '福建省福州市鼓楼区')).toBe('350102');
    expect(code('江苏', '徐州鼓楼区')).toBe('320302');
  });

  it('stops at the city when the address names nothing inside it', () => {
    expect(code('南京市', '中山北路1号')).toBe('320100');
    expect(code('广东', '')).toBe('440000');
  });

  it('reads a short name before 路/街/门… as a street', () => {
    expect(matcher.mentions('中山路').length).toBe(0);
    expect(matcher.mentions('中山市中山路').map((m) => m.text)).toEqual(['中山市']);
    expect(matcher.mentions('中山北路').length).toBe(0);
    expect(code('', '中山东大街')).toBeUndefined();
  });

  it('matches a generic county name (城区) only with its prefecture', () => {
    expect(code('', '老城区')).toBeUndefined();
    expect(code('阳泉', '城区')).toBe('140302');
  });

  it('lets the address settle an ambiguous city text (吉林)', () => {
    expect(code('吉林', '长春市朝阳区')).toBe('220104');
    expect(code('吉林', '')).toBe('220200');
  });

  it('answers undefined when nothing is named', () => {
    expect(code('Paris', 'Rue de Rivoli')).toBeUndefined();
  });
});
