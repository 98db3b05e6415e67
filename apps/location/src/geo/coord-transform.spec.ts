import { convertDatum, gcj02ToWgs84, isInMainlandChina, wgs84ToGcj02 } from './coord-transform';

describe('WGS-84 / GCJ-02', () => {
  it('shifts a Beijing point by the known offset', () => {
    // Tiananmen: WGS-84 116.391283,39.907583 → GCJ-02 about 116.397528,39.908983
    const [lon, lat] = wgs84ToGcj02(116.391283, 39.907583);
    expect(lon).toBeCloseTo(116.39753, 4);
    expect(lat).toBeCloseTo(39.90898, 4);
  });

  it('inverts to within a centimetre', () => {
    const [lon, lat] = gcj02ToWgs84(...wgs84ToGcj02(113.9305, 22.5431));
    expect(lon).toBeCloseTo(113.9305, 7);
    expect(lat).toBeCloseTo(22.5431, 7);
  });

  it('leaves points outside mainland China unchanged', () => {
    expect(isInMainlandChina(2.3522, 48.8566)).toBe(false);
    expect(wgs84ToGcj02(2.3522, 48.8566)).toEqual([2.3522, 48.8566]);
    expect(convertDatum(-74.006, 40.7128, 'gcj02', 'wgs84')).toEqual([-74.006, 40.7128]);
    expect(convertDatum(116.4, 39.9, 'wgs84', 'wgs84')).toEqual([116.4, 39.9]);
  });
});
