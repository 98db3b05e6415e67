import { gunzipSync, gzipSync } from 'node:zlib';
import { decodeGeodata, encodeGeodata } from './geodata-format';

const header = {
  scale: 1024,
  codeVintage: '2023',
  simplifyTolerance: 0,
  builtFrom: ['test'],
  provinces: [['110000', '北京市', 116.4, 39.9] as [string, string, number, number]],
  prefectures: [],
  counties: [['110101', '东城区', 116.41, 39.9] as [string, string, number, number]],
};

describe('geodata asset format', () => {
  it('round-trips polygons with holes, as steps from the first point of each ring', () => {
    const outer = Int32Array.from([0, 0, 100, 0, 100, 100, 0, 100]);
    const hole = Int32Array.from([10, 10, 20, 10, 20, 20]);
    const far = Int32Array.from([138000, 55000, 138001, 55000, 138001, 55001]);
    const data = decodeGeodata(
      encodeGeodata(header, [
        { division: 0, rings: [outer, hole] },
        { division: 0, rings: [far] },
      ]),
    );
    expect(data.header).toMatchObject({ format: 1, polygonCount: 2, pointCount: 10, codeVintage: '2023' });
    expect(data.header.counties).toEqual(header.counties);
    expect(Array.from(data.polyRing)).toEqual([0, 2, 3]);
    expect(Array.from(data.ringStart)).toEqual([0, 4, 7, 10]);
    // Boxes are absolute; ring starts are relative to their polygon's south-west corner.
    expect(Array.from(data.originX)).toEqual([0, 138000]);
    expect(Array.from(data.originY)).toEqual([0, 55000]);
    expect(Array.from(data.maxX)).toEqual([100, 138001]);
    expect(Array.from(data.maxY)).toEqual([100, 55001]);
    expect(Array.from(data.ringX)).toEqual([0, 10, 0]);
    expect(Array.from(data.ringY)).toEqual([0, 10, 0]);
    expect(Array.from(data.steps)).toEqual([0, 0, 100, 0, 0, 100, -100, 0, 0, 0, 10, 0, 0, 10, 0, 0, 1, 0, 0, 1]);
    expect(Array.from(data.polyDivision)).toEqual([0, 0]);
  });

  it('cuts steps longer than a signed byte into several along the same line', () => {
    const data = decodeGeodata(encodeGeodata(header, [{ division: 0, rings: [Int32Array.from([0, 0, 300, 0, 300, 10])] }]));
    const steps = Array.from(data.steps);
    // 300 → three steps of 100, then the 10-unit step up.
    expect(steps).toEqual([0, 0, 100, 0, 100, 0, 100, 0, 0, 10]);
    expect(Array.from(data.ringStart)).toEqual([0, 5]);
  });

  it('refuses a polygon wider than the 16-bit local coordinates', () => {
    const wide = Int32Array.from([0, 0, 70000, 0, 70000, 10]);
    expect(() => decodeGeodata(encodeGeodata(header, [{ division: 0, rings: [wide] }]))).toThrow(/too wide/);
  });

  it('refuses a file that is not a geodata asset', () => {
    expect(() => decodeGeodata(gzipSync(Buffer.from('NOPE\0\0\0\0')))).toThrow(/bad magic/);
  });

  it('refuses a truncated asset', () => {
    const asset = encodeGeodata(header, [{ division: 0, rings: [Int32Array.from([0, 0, 5, 0, 5, 5])] }]);
    const raw = gunzipSync(asset);
    expect(() => decodeGeodata(gzipSync(raw.subarray(0, raw.length - 2)))).toThrow(/truncated|inconsistent/);
  });
});
