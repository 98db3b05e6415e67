import { CellIndexBuilder, MAX_LAC } from './cell-index';

describe('CellIndex', () => {
  it('finds cells by (mcc, mnc, lac, cellid), with 6-decimal coordinates', () => {
    const b = new CellIndexBuilder();
    b.add({ mcc: 460, mnc: 0, lac: 4000, cellid: 10000 }, 116.391275, 39.907501, 1500, 10);
    b.add({ mcc: 460, mnc: 1, lac: 4000, cellid: 10000 }, 121.473701, 31.230416);
    b.add({ mcc: 460, mnc: 0, lac: 4001, cellid: 10000 }, 113.264385, 23.129112);
    const index = b.build();
    expect(index.size).toBe(3);
    expect(index.get({ mcc: 460, mnc: 0, lac: 4000, cellid: 10000 })).toEqual({ longitude: 116.391275, latitude: 39.907501, range: 1500 });
    expect(index.get({ mcc: 460, mnc: 1, lac: 4000, cellid: 10000 })).toEqual({ longitude: 121.473701, latitude: 31.230416 });
    expect(index.get({ mcc: 460, mnc: 0, lac: 4001, cellid: 10000 })?.longitude).toBe(113.264385);
    expect(index.get({ mcc: 460, mnc: 0, lac: 4000, cellid: 10001 })).toBeNull();
    expect(index.get({ mcc: 461, mnc: 0, lac: 4000, cellid: 10000 })).toBeNull();
    expect(index.get({ mcc: 460, mnc: 0, lac: -1, cellid: 10000 })).toBeNull();
  });

  it('holds NR-sized identifiers (24-bit TAC, 36-bit NCI) without collisions', () => {
    const b = new CellIndexBuilder();
    const nci = 2 ** 36 - 1;
    b.add({ mcc: 999, mnc: 999, lac: MAX_LAC, cellid: nci }, 1, 2);
    b.add({ mcc: 999, mnc: 999, lac: MAX_LAC, cellid: nci - 1 }, 3, 4);
    b.add({ mcc: 999, mnc: 999, lac: MAX_LAC - 1, cellid: nci }, 5, 6);
    expect(b.add({ mcc: 460, mnc: 0, lac: MAX_LAC + 1, cellid: 1 }, 7, 8)).toBe(false);
    expect(b.add({ mcc: 1000, mnc: 0, lac: 1, cellid: 1 }, 7, 8)).toBe(false);
    expect(b.add({ mcc: 460, mnc: 0, lac: 1, cellid: 1 }, 181, 8)).toBe(false);
    const index = b.build();
    expect(index.get({ mcc: 999, mnc: 999, lac: MAX_LAC, cellid: nci })).toEqual({ longitude: 1, latitude: 2 });
    expect(index.get({ mcc: 999, mnc: 999, lac: MAX_LAC, cellid: nci - 1 })).toEqual({ longitude: 3, latitude: 4 });
    expect(index.get({ mcc: 999, mnc: 999, lac: MAX_LAC - 1, cellid: nci })).toEqual({ longitude: 5, latitude: 6 });
  });

  it('keeps the row with the most samples when a key repeats (same numbers under two radios)', () => {
    const b = new CellIndexBuilder();
    b.add({ mcc: 460, mnc: 0, lac: 1, cellid: 1 }, 10, 10, 0, 5);
    b.add({ mcc: 460, mnc: 0, lac: 1, cellid: 1 }, 20, 20, 0, 50);
    b.add({ mcc: 460, mnc: 0, lac: 1, cellid: 1 }, 30, 30, 0, 7);
    const index = b.build();
    expect(index.size).toBe(1);
    expect(index.get({ mcc: 460, mnc: 0, lac: 1, cellid: 1 })).toEqual({ longitude: 20, latitude: 20 });
  });

  it('grows past its initial capacity and stays sorted', () => {
    const b = new CellIndexBuilder();
    const n = 20_000;
    for (let i = n - 1; i >= 0; i--) b.add({ mcc: 460, mnc: i % 3, lac: i % 97, cellid: i }, (i % 360) - 180 + 0.5, (i % 180) - 90 + 0.25);
    const index = b.build();
    expect(index.size).toBe(n);
    for (const i of [0, 1, 4095, 4096, 12_345, n - 1]) {
      expect(index.get({ mcc: 460, mnc: i % 3, lac: i % 97, cellid: i })).toEqual({
        longitude: (i % 360) - 180 + 0.5,
        latitude: (i % 180) - 90 + 0.25,
      });
    }
  });
});
