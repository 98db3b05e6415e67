import { wgs84ToGcj02 } from '../../geo/coord-transform';
import { OfflineGeocoder, createOfflineGeocoder } from '.';

describe('OfflineGeocoder (built assets)', () => {
  let geocoder: OfflineGeocoder;
  /** A WGS-84 point as the service hands it to this adapter. */
  const toGcj = (lon: number, lat: number) => wgs84ToGcj02(lon, lat, geocoder.mainland.contains);

  beforeAll(async () => {
    geocoder = await createOfflineGeocoder();
  });

  it('is the offline adapter working in GCJ-02', () => {
    expect(geocoder.name).toBe('offline');
    expect(geocoder.datum).toBe('gcj02');
  });

  describe('reverse', () => {
    it('answers county, prefecture and province of a mainland point', async () => {
      const [lon, lat] = toGcj(114.0579, 22.5431);
      expect(await geocoder.reverse(lon, lat)).toEqual({
        longitude: lon,
        latitude: lat,
        country: '中国',
        provinceName: '广东省',
        provinceCode: '440000',
        areaName: '深圳市',
        areaCode: '440300',
        standardCode: '440304',
        address: '广东省深圳市福田区',
      });
    });

    it('answers a municipality as its own area', async () => {
      const place = await geocoder.reverse(...toGcj(116.3913, 39.9075));
      expect(place).toMatchObject({
        provinceName: '北京市',
        provinceCode: '110000',
        areaName: '北京市',
        areaCode: '110100',
        standardCode: '110101',
        address: '北京市东城区',
      });
    });

    it('answers a province-administered county (xx90xx) as its own area', async () => {
      const place = await geocoder.reverse(...toGcj(113.454, 30.362));
      expect(place).toMatchObject({ provinceCode: '420000', areaName: '仙桃市', areaCode: '429004', standardCode: '429004' });
    });

    it('answers Hong Kong, Macao and Taiwan with their region and district', async () => {
      expect(await geocoder.reverse(...toGcj(114.172, 22.298))).toMatchObject({
        country: '中国',
        provinceName: '香港特别行政区',
        provinceCode: '810000',
        areaName: '油尖旺区',
      });
      expect(await geocoder.reverse(...toGcj(113.5439, 22.1987))).toMatchObject({
        country: '中国',
        provinceName: '澳门特别行政区',
        provinceCode: '820000',
      });
      const taipei = await geocoder.reverse(...toGcj(121.5645, 25.0339));
      expect(taipei).toMatchObject({
        country: '中国',
        provinceName: '台湾省',
        provinceCode: '710000',
        areaName: '台北市',
        address: '台湾省台北市',
      });
      expect(taipei?.standardCode).toBeUndefined();
    });

    it('answers the country and the nearest place abroad', async () => {
      expect(await geocoder.reverse(139.6917, 35.6895)).toEqual({
        longitude: 139.6917,
        latitude: 35.6895,
        country: '日本',
        address: '日本 Tokyo',
      });
      expect(await geocoder.reverse(2.3522, 48.8566)).toMatchObject({ country: '法国', address: '法国 Paris' });
      expect(await geocoder.reverse(-74.006, 40.7128)).toMatchObject({ country: '美国' });
    });

    it('answers the country alone where no place is near', async () => {
      // Central Sahara, Algeria.
      expect(await geocoder.reverse(2.5, 24.5)).toMatchObject({ country: '阿尔及利亚', address: '阿尔及利亚' });
    });

    it('answers nothing in the open ocean', async () => {
      expect(await geocoder.reverse(-30, 30)).toBeNull();
      expect(await geocoder.reverse(160, -40)).toBeNull();
    });

    it('answers the nearest county for a point just off the coast (outside every polygon)', async () => {
      // 2 km east of 浦东新区's shore, in the sea: no polygon holds it, the coast is near.
      const place = await geocoder.reverse(122.01, 30.9);
      expect(place).toMatchObject({ provinceCode: '310000', standardCode: '310115' });
      expect(await geocoder.reverse(122.3, 30.9)).not.toMatchObject({ standardCode: '310115' });
    });
  });

  describe('division seats', () => {
    it('every county, prefecture and province seat lies in its own division', () => {
      const { counties, prefectures, provinces } = geocoder.divisions;
      const astray = [
        ...counties.filter((c) => {
          const place = geocoder.reverseSync(c.lon, c.lat);
          return /^(71|81|82)/.test(c.code) ? place?.areaName !== c.name : place?.standardCode !== c.code;
        }),
        ...prefectures.filter((p) => geocoder.reverseSync(p.lon, p.lat)?.areaCode !== p.code),
        ...provinces.filter((p) => geocoder.reverseSync(p.lon, p.lat)?.provinceCode !== p.code),
      ].map((d) => `${d.code} ${d.name}`);
      expect(counties.length).toBeGreaterThan(2800);
      expect(prefectures.length).toBeGreaterThan(300);
      expect(provinces).toHaveLength(34);
      expect(astray).toEqual([]);
    });

    it('answers 金门县 with its 2023 code under 福建', async () => {
      expect(await geocoder.reverse(118.35, 24.45)).toMatchObject({ provinceCode: '350000', areaCode: '350500', standardCode: '350527' });
    });
  });

  describe('forward', () => {
    it('北京市 + 长安街1号 → the municipality, its seat in 东城区', async () => {
      const place = await geocoder.forward('北京市', '长安街1号');
      expect(place).toMatchObject({ provinceName: '北京市', provinceCode: '110000', areaCode: '110100', standardCode: '110000' });
      const seat = await geocoder.reverse(place!.longitude, place!.latitude);
      expect(['110101', '110102']).toContain(seat?.standardCode);
    });

    it('上海 + 浦东新区… → 310115 (short city name, full county name)', async () => {
      const place = await geocoder.forward('上海', '浦东新区世纪大道100号');
      expect(place).toMatchObject({ provinceCode: '310000', areaCode: '310100', standardCode: '310115', address: '上海市浦东新区' });
      expect((await geocoder.reverse(place!.longitude, place!.latitude))?.standardCode).toBe('310115');
    });

    it('a short county name inside the city: 上海 + 浦东…', async () => {
      expect((await geocoder.forward('上海市', '浦东陆家嘴环路1000号'))?.standardCode).toBe('310115');
    });

    it('a town or sub-district named in the address takes the city down to its county', async () => {
      expect(await geocoder.forward('上海', '陆家嘴环路1000号')).toMatchObject({ standardCode: '310115', address: '上海市浦东新区' });
      expect((await geocoder.forward('深圳市', '粤海街道科技园'))?.standardCode).toBe('440305');
      // 南京东路 is also the name of 黄浦区's sub-district.
      expect((await geocoder.forward('上海', '南京东路'))?.standardCode).toBe('310101');
      // A town's stem right before 大街 is read as the street's name: no deeper answer.
      expect((await geocoder.forward('北京', '中关村大街27号'))?.standardCode).toBe('110000');
    });

    it('a county name found in several cities resolves inside the city given (鼓楼区)', async () => {
      expect((await geocoder.forward('福州', '鼓楼区五四路'))?.standardCode).toBe('350102');
      expect((await geocoder.forward('南京市', '鼓楼区中山北路'))?.standardCode).toBe('320106');
      expect((await geocoder.forward('北京', '朝阳区建国路'))?.standardCode).toBe('110105');
      expect((await geocoder.forward('长春', '朝阳区人民大街'))?.standardCode).toBe('220104');
    });

    it('province short forms (广西, 内蒙古) and a prefecture named in the address', async () => {
      expect(await geocoder.forward('广西', '')).toMatchObject({ provinceName: '广西壮族自治区', standardCode: '450000' });
      expect(await geocoder.forward('内蒙古', '呼和浩特市新城区')).toMatchObject({ areaName: '呼和浩特市', standardCode: '150102' });
      expect(await geocoder.forward('广东省', '深圳市南山区科技园')).toMatchObject({ areaCode: '440300', standardCode: '440305' });
    });

    it('an ambiguous city text (吉林: province or city) yields to the address', async () => {
      expect((await geocoder.forward('吉林', '长春市朝阳区'))?.standardCode).toBe('220104');
    });

    it('a street named after another city does not move the answer (北京 + 南京东路)', async () => {
      expect((await geocoder.forward('北京', '南京东路'))?.standardCode).toBe('110000');
    });

    it('a prefecture alone answers its own code and seat', async () => {
      const place = await geocoder.forward('深圳市', '');
      expect(place).toMatchObject({ areaCode: '440300', standardCode: '440300' });
      expect((await geocoder.reverse(place!.longitude, place!.latitude))?.areaCode).toBe('440300');
    });

    it('Hong Kong and Taiwan by name: the region, its seat in its government district', async () => {
      const hk = await geocoder.forward('香港', '');
      expect(hk).toMatchObject({ provinceName: '香港特别行政区', provinceCode: '810000', standardCode: '810000' });
      expect((await geocoder.reverse(hk!.longitude, hk!.latitude))?.areaName).toBe('中西区');
      const taipei = await geocoder.forward('台湾', '台北市');
      expect(taipei).toMatchObject({ provinceCode: '710000', areaName: '台北市', address: '台湾省台北市' });
      expect(taipei?.standardCode).toBeUndefined();
    });

    it('marks an answer the city text alone gives, whatever the address', () => {
      expect(geocoder.forwardSync('杭州市', 'qx7Zk0aPw9 unknown')?.fromCityAlone).toBe(true);
      expect(geocoder.forwardSync('杭州市', '杭州市 qx7Zk0aPw9')?.fromCityAlone).toBe(true);
      expect(geocoder.forwardSync('北京市', '长安街1号')?.fromCityAlone).toBe(true);
      // The address named a county, a town, or a city of the province named.
      expect(geocoder.forwardSync('杭州市', '西湖区文三路')?.fromCityAlone).toBeUndefined();
      expect(geocoder.forwardSync('上海', '陆家嘴环路1000号')?.fromCityAlone).toBeUndefined();
      expect(geocoder.forwardSync('浙江', '杭州市')?.fromCityAlone).toBeUndefined();
    });

    it('answers null when no division is named', async () => {
      expect(await geocoder.forward('Springfield', 'Main Street 1')).toBeNull();
      expect(await geocoder.forward('', '')).toBeNull();
    });
  });
});
