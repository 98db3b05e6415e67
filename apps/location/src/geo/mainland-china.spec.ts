import path from 'node:path';
import { WORLD_COUNTRIES_FILE, defaultDataDir } from '../geodata/geodata-files';
import { convertDatum, gcj02ToWgs84, wgs84ToGcj02 } from './coord-transform';
import { MainlandChina } from './mainland-china';
import { loadMainlandChina } from './mainland-china.module';

type Point = [name: string, longitude: number, latitude: number];

const OUTSIDE: Point[] = [
  ['Seoul', 126.978, 37.566],
  ['Taipei', 121.565, 25.033],
  ['Hong Kong', 114.169, 22.319],
  ['Macao', 113.543, 22.199],
  ['Ulaanbaatar', 106.917, 47.918],
  ['Hanoi', 105.854, 21.028],
  ['Tokyo', 139.692, 35.69],
  ['Nagasaki (west of Tokyo, inside the old box)', 129.873, 32.75],
  ['Sinuiju, across the Yalu from Dandong', 124.4, 40.1],
  ['Kinmen', 118.318, 24.437],
  ['Matsu', 119.94, 26.16],
  ['Pratas', 116.72, 20.7],
  ['Kathmandu', 85.324, 27.717],
  ['New Delhi', 77.209, 28.614],
  ['Almaty', 76.946, 43.238],
  ['Vladivostok', 131.886, 43.116],
  ['Paris', 2.352, 48.857],
  ['East China Sea, beyond the tolerance', 123.65, 31.0],
];

const INSIDE: Point[] = [
  ['Beijing', 116.391, 39.907],
  ['Shanghai', 121.473, 31.23],
  ['Urumqi', 87.617, 43.826],
  ['Lhasa', 91.117, 29.653],
  ['Haikou', 110.199, 20.044],
  ['Sanya', 109.512, 18.252],
  ['Harbin', 126.535, 45.803],
  ['Kashgar', 75.99, 39.47],
  ['Shenzhen, next to Hong Kong', 114.058, 22.543],
  ['Zhuhai, next to Macao', 113.576, 22.271],
  ['Xiamen, next to Kinmen', 118.089, 24.479],
  ['Dandong', 124.383, 40.125],
  ['Mohe', 122.538, 52.972],
  ['Shanghai shore (Luchaogang)', 121.91, 30.86],
  ['off Shanghai, just beyond the simplified border', 123.56, 31.0],
];

describe('MainlandChina', () => {
  let mainland: MainlandChina;

  beforeAll(async () => {
    mainland = await loadMainlandChina();
  });

  it.each(OUTSIDE)('%s is not mainland China', (_name, lon, lat) => {
    expect(mainland.contains(lon, lat)).toBe(false);
  });

  it.each(INSIDE)('%s is mainland China', (_name, lon, lat) => {
    expect(mainland.contains(lon, lat)).toBe(true);
  });

  it('answers the same on the GCJ-02 form of the points', () => {
    for (const [, lon, lat] of INSIDE) expect(mainland.contains(...wgs84ToGcj02(lon, lat, () => true))).toBe(true);
    for (const [, lon, lat] of OUTSIDE) expect(mainland.contains(...wgs84ToGcj02(lon, lat, () => true))).toBe(false);
  });

  it('answers from its grid as the rule on the borders does', () => {
    // A fixed pseudo-random sequence: the box of China, then the surroundings of border towns.
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const points: [number, number][] = [];
    for (let i = 0; i < 20_000; i++) points.push([72 + random() * 64, 13 + random() * 42]);
    for (const [, lon, lat] of [...OUTSIDE, ...INSIDE].filter(([name]) => !['Paris', 'Tokyo'].includes(name))) {
      for (let i = 0; i < 1000; i++) points.push([lon + (random() - 0.5) * 0.6, lat + (random() - 0.5) * 0.6]);
    }
    const inside = points.filter(([lon, lat]) => mainland.contains(lon, lat));
    expect(points.filter(([lon, lat]) => mainland.contains(lon, lat) !== mainland.rule(lon, lat))).toEqual([]);
    // Both answers occur, and most cells need no border test.
    expect(inside.length).toBeGreaterThan(points.length / 4);
    expect(inside.length).toBeLessThan(points.length * 0.75);
    expect(mainland.borderCellShare).toBeLessThan(0.2);
  });

  it('takes no coordinates that are not numbers', () => {
    expect(mainland.contains(Number.NaN, 39.9)).toBe(false);
    expect(mainland.contains(116.4, Number.NaN)).toBe(false);
  });

  it('has no tolerance at sea when given 0', async () => {
    const strict = await MainlandChina.load(path.join(defaultDataDir(), WORLD_COUNTRIES_FILE), 0);
    expect(strict.contains(123.56, 31.0)).toBe(false);
    expect(strict.contains(121.473, 31.23)).toBe(true);
  });

  describe('in the datum conversion', () => {
    it.each(OUTSIDE)('%s is not shifted', (_name, lon, lat) => {
      expect(wgs84ToGcj02(lon, lat, mainland.contains)).toEqual([lon, lat]);
      expect(gcj02ToWgs84(lon, lat, mainland.contains)).toEqual([lon, lat]);
      expect(convertDatum(lon, lat, 'wgs84', 'gcj02', mainland.contains)).toEqual([lon, lat]);
      expect(convertDatum(lon, lat, 'gcj02', 'wgs84', mainland.contains)).toEqual([lon, lat]);
    });

    it.each(INSIDE)('%s is shifted by a few hundred metres, and back', (_name, lon, lat) => {
      const [gLon, gLat] = convertDatum(lon, lat, 'wgs84', 'gcj02', mainland.contains);
      const metres = Math.hypot((gLon - lon) * 111_320 * Math.cos((lat * Math.PI) / 180), (gLat - lat) * 110_574);
      expect(metres).toBeGreaterThan(50);
      expect(metres).toBeLessThan(1000);
      const [wLon, wLat] = convertDatum(gLon, gLat, 'gcj02', 'wgs84', mainland.contains);
      expect(wLon).toBeCloseTo(lon, 7);
      expect(wLat).toBeCloseTo(lat, 7);
    });
  });
});
