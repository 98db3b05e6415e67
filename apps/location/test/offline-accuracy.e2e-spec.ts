/**
 * Accuracy of the offline geocoder on well-known places (WGS-84 coordinates, converted to the
 * adapter's GCJ-02 as the service does): province, prefecture and county hit rates, printed,
 * failing below 95% / 90% / 80%.
 */
import { wgs84ToGcj02 } from '../src/geo/coord-transform';
import { OfflineGeocoder, createOfflineGeocoder } from '../src/geocoder/offline';

/** [place, WGS-84 longitude, latitude, county code, prefecture (area) code]. */
const PLACES: [string, number, number, string, string][] = [
  ['天安门 北京', 116.3913, 39.9075, '110101', '110100'],
  ['人民广场 上海', 121.47, 31.232, '310101', '310100'],
  ['东方明珠 上海', 121.4997, 31.2397, '310115', '310100'],
  ['浦东机场 上海', 121.805, 31.144, '310115', '310100'],
  ['泰达 天津', 117.7, 39.02, '120116', '120100'],
  ['解放碑 重庆', 106.577, 29.5574, '500103', '500100'],
  ['广州塔 广州', 113.3245, 23.1064, '440105', '440100'],
  ['市民中心 深圳', 114.0579, 22.5431, '440304', '440300'],
  ['东莞', 113.7518, 23.0207, '441900', '441900'],
  ['西湖 杭州', 120.1445, 30.2429, '330106', '330100'],
  ['天一阁 宁波', 121.543, 29.873, '330203', '330200'],
  ['乌镇 嘉兴', 120.488, 30.745, '330483', '330400'],
  ['中山陵 南京', 118.8484, 32.0637, '320102', '320100'],
  ['拙政园 苏州', 120.629, 31.323, '320508', '320500'],
  ['黄鹤楼 武汉', 114.3025, 30.5446, '420106', '420100'],
  ['仙桃', 113.454, 30.362, '429004', '429004'],
  ['武侯祠 成都', 104.0434, 30.6456, '510107', '510100'],
  ['九寨沟', 103.918, 33.26, '513225', '513200'],
  ['大雁塔 西安', 108.9594, 34.2196, '610113', '610100'],
  ['布达拉宫 拉萨', 91.1172, 29.6578, '540102', '540100'],
  ['扎什伦布寺 日喀则', 88.865, 29.268, '540202', '540200'],
  ['地窝堡机场 乌鲁木齐', 87.4742, 43.9071, '650104', '650100'],
  ['艾提尕尔清真寺 喀什', 75.982, 39.472, '653101', '653100'],
  ['石河子', 86.041, 44.306, '659001', '659001'],
  ['中央大街 哈尔滨', 126.617, 45.7722, '230102', '230100'],
  ['伪满皇宫 长春', 125.3355, 43.9037, '220103', '220100'],
  ['延吉', 129.509, 42.891, '222401', '222400'],
  ['沈阳故宫', 123.4559, 41.7964, '210103', '210100'],
  ['大召寺 呼和浩特', 111.6547, 40.799, '150104', '150100'],
  ['满洲里', 117.433, 49.597, '150781', '150700'],
  ['正定古城 石家庄', 114.57, 38.147, '130123', '130100'],
  ['避暑山庄 承德', 117.938, 40.99, '130802', '130800'],
  ['晋祠 太原', 112.436, 37.706, '140110', '140100'],
  ['平遥古城 晋中', 112.175, 37.202, '140728', '140700'],
  ['趵突泉 济南', 117.0137, 36.6612, '370102', '370100'],
  ['栈桥 青岛', 120.3157, 36.06, '370202', '370200'],
  ['少林寺 登封', 112.9355, 34.5081, '410185', '410100'],
  ['龙门石窟 洛阳', 112.472, 34.556, '410311', '410300'],
  ['黄山风景区', 118.168, 30.131, '341003', '341000'],
  ['滕王阁 南昌', 115.881, 28.682, '360102', '360100'],
  ['景德镇', 117.21, 29.293, '360203', '360200'],
  ['岳麓书院 长沙', 112.937, 28.183, '430104', '430100'],
  ['武陵源 张家界', 110.55, 29.346, '430811', '430800'],
  ['三坊七巷 福州', 119.296, 26.084, '350102', '350100'],
  ['鼓浪屿 厦门', 118.067, 24.447, '350203', '350200'],
  ['青秀山 南宁', 108.383, 22.786, '450103', '450100'],
  ['阳朔', 110.496, 24.778, '450321', '450300'],
  ['假日海滩 海口', 110.27, 20.04, '460105', '460100'],
  ['天涯海角 三亚', 109.35, 18.295, '460204', '460200'],
  ['甲秀楼 贵阳', 106.7135, 26.577, '520102', '520100'],
  ['黄果树瀑布', 105.666, 25.992, '520423', '520400'],
  ['石林', 103.325, 24.815, '530126', '530100'],
  ['丽江古城', 100.233, 26.872, '530702', '530700'],
  ['中山桥 兰州', 103.825, 36.068, '620102', '620100'],
  ['莫高窟 敦煌', 94.809, 40.042, '620982', '620900'],
  ['塔尔寺 西宁', 101.569, 36.487, '630106', '630100'],
  ['西夏王陵 银川', 105.98, 38.44, '640105', '640100'],
  ['沙坡头 中卫', 105.008, 37.463, '640502', '640500'],
];

describe('offline geocoder accuracy on well-known places', () => {
  let geocoder: OfflineGeocoder;

  beforeAll(async () => {
    geocoder = await createOfflineGeocoder();
  });

  it('hits province ≥ 95%, prefecture ≥ 90%, county ≥ 80%', async () => {
    let province = 0;
    let prefecture = 0;
    let county = 0;
    const misses: string[] = [];
    for (const [name, lon, lat, countyCode, areaCode] of PLACES) {
      const [x, y] = wgs84ToGcj02(lon, lat, geocoder.mainland.contains);
      const place = await geocoder.reverse(x, y);
      if (place?.provinceCode === `${countyCode.slice(0, 2)}0000`) province++;
      if (place?.areaCode === areaCode) prefecture++;
      if (place?.standardCode === countyCode) county++;
      else misses.push(`${name}: want ${countyCode}, got ${place?.standardCode ?? 'nothing'} ${place?.address ?? ''}`);
    }
    const rate = (n: number) => (100 * n) / PLACES.length;
    console.log(
      `offline geocoder on ${PLACES.length} places: province ${rate(province).toFixed(1)}%, ` +
        `prefecture ${rate(prefecture).toFixed(1)}%, county ${rate(county).toFixed(1)}%` +
        (misses.length ? `\n  county misses:\n  ${misses.join('\n  ')}` : ''),
    );
    expect(PLACES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(PLACES.map((p) => p[3].slice(0, 2))).size).toBeGreaterThanOrEqual(25);
    expect(rate(province)).toBeGreaterThanOrEqual(95);
    expect(rate(prefecture)).toBeGreaterThanOrEqual(90);
    expect(rate(county)).toBeGreaterThanOrEqual(80);
  });
});
