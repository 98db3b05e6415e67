import { convertDatum, gcj02ToWgs84, wgs84ToGcj02 } from './coord-transform';

const everywhere = () => true;
const nowhere = () => false;

describe('WGS-84 / GCJ-02', () => {
  it('shifts a Beijing point by the known offset', () => {
    // Tiananmen: WGS-84 116.391283,39.907583 → GCJ-02 about 116.397528,39.908983
    const [lon, lat] = wgs84ToGcj02(116.391283, 39.907583, everywhere);
    expect(lon).toBeCloseTo(116.39753, 4);
    expect(lat).toBeCloseTo(39.90898, 4);
  });

  it('inverts to within a centimetre', () => {
    const [lon, lat] = gcj02ToWgs84(...wgs84ToGcj02(113.9305, 22.5431, everywhere), everywhere);
    expect(lon).toBeCloseTo(113.9305, 7);
    expect(lat).toBeCloseTo(22.5431, 7);
  });

  it('leaves points unchanged where the test says they are not in mainland China', () => {
    expect(wgs84ToGcj02(116.391283, 39.907583, nowhere)).toEqual([116.391283, 39.907583]);
    expect(gcj02ToWgs84(116.397528, 39.908983, nowhere)).toEqual([116.397528, 39.908983]);
    expect(convertDatum(126.978, 37.566, 'wgs84', 'gcj02', nowhere)).toEqual([126.978, 37.566]);
  });

  it('asks the test about the point as given, once', () => {
    const asked: [number, number][] = [];
    const test = (lon: number, lat: number) => {
      asked.push([lon, lat]);
      return true;
    };
    gcj02ToWgs84(116.397528, 39.908983, test);
    wgs84ToGcj02(116.391283, 39.907583, test);
    expect(asked).toEqual([
      [116.397528, 39.908983],
      [116.391283, 39.907583],
    ]);
  });

  it('is the identity between a datum and itself, without asking', () => {
    let asked = 0;
    const test = () => ++asked > 0;
    expect(convertDatum(116.4, 39.9, 'wgs84', 'wgs84', test)).toEqual([116.4, 39.9]);
    expect(convertDatum(116.4, 39.9, 'gcj02', 'gcj02', test)).toEqual([116.4, 39.9]);
    expect(asked).toBe(0);
  });
});
