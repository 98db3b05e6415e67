import { CountyIndex } from './county-index';
import { decodeGeodata, encodeGeodata } from './geodata-format';

/** A square of `size` degrees at (x, y), in 1/1024 degree units. */
function square(x: number, y: number, size: number): Int32Array {
  const u = (d: number) => Math.round(d * 1024);
  return Int32Array.from([u(x), u(y), u(x + size), u(y), u(x + size), u(y + size), u(x), u(y + size)]);
}

describe('CountyIndex', () => {
  const row = (code: string): [string, string, number, number] => [code, code, 0, 0];
  const data = decodeGeodata(
    encodeGeodata(
      {
        scale: 1024,
        codeVintage: '2023',
        simplifyTolerance: 0,
        builtFrom: [],
        provinces: [],
        prefectures: [],
        counties: [row('A'), row('B'), row('C'), row('D')],
      },
      [
        // A: a big square drawn without a hole around its enclave B (as in the source data).
        { division: 0, rings: [square(100, 30, 1)] },
        { division: 1, rings: [square(100.4, 30.4, 0.2)] },
        // C: a square with a real hole, D to its east.
        { division: 2, rings: [square(102, 30, 1), square(102.25, 30.25, 0.5)] },
        { division: 3, rings: [square(103, 30, 1)] },
      ],
    ),
  );
  const index = new CountyIndex(data);

  it('finds the polygon holding a point', () => {
    expect(index.lookup(100.1, 30.1)).toBe(0);
    expect(index.lookup(103.5, 30.5)).toBe(3);
  });

  it('prefers the smaller polygon when two overlap (an enclave)', () => {
    expect(index.lookup(100.5, 30.5)).toBe(1);
  });

  it('honours holes', () => {
    expect(index.lookup(102.1, 30.1)).toBe(2);
    expect(index.lookup(102.5, 30.5)).toBe(-1);
  });

  it('answers -1 outside every polygon', () => {
    expect(index.lookup(101.5, 30.5)).toBe(-1);
    expect(index.lookup(-70, -30)).toBe(-1);
  });

  it('finds the nearest polygon within a distance only', () => {
    expect(index.nearest(101.02, 30.5, 0.05)).toBe(0);
    expect(index.nearest(101.96, 30.5, 0.05)).toBe(2);
    expect(index.nearest(101.5, 30.5, 0.05)).toBe(-1);
  });
});
