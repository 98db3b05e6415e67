import { decodeRing, encodeRing, geometryPolygons, isEncoded, zigZagDecode } from './echarts-decode';

describe('ECharts encoded GeoJSON', () => {
  it('zig-zag decodes small integers', () => {
    expect([0, 1, 2, 3, 4, 5].map(zigZagDecode)).toEqual([0, -1, 1, -2, 2, -3]);
  });

  it('decodes a ring of the source data (黄浦区, Shanghai) to a closed ring in 1/1024 degrees', () => {
    const ring = decodeRing('@@AHV@BDCPEPLENFHCJHFBNCAGBGXWFIBGCGMUKKCCcGCDGBALCPIAAPGR', [124373, 31970]);
    expect(ring).toHaveLength(29);
    expect(ring[0]).toEqual([124373 / 1024, 31970 / 1024]);
    expect(ring[1]).toEqual([121.45703125, 31.224609375]);
    expect(ring[28]).toEqual(ring[0]);
  });

  it('round-trips encodeRing / decodeRing, negative deltas included', () => {
    const ring: [number, number][] = [
      [116.3876953125, 39.9609375],
      [116.4, 39.95],
      [116.35, 39.97],
      [116.3876953125, 39.9609375],
    ];
    const { encoded, offset } = encodeRing(ring);
    expect(decodeRing(encoded, offset)).toEqual(ring.map(([x, y]) => [Math.round(x * 1024) / 1024, Math.round(y * 1024) / 1024]));
  });

  it('rejects a truncated ring', () => {
    expect(() => decodeRing('@@A', [0, 0])).toThrow(/odd/);
  });

  it('decodes encoded MultiPolygons ring by ring, and passes plain ones through', () => {
    const a = encodeRing([
      [1, 1],
      [2, 1],
      [2, 2],
      [1, 1],
    ]);
    const b = encodeRing([
      [5, 5],
      [6, 5],
      [6, 6],
      [5, 5],
    ]);
    const encoded = geometryPolygons(
      { type: 'MultiPolygon', coordinates: [[a.encoded], [b.encoded]], encodeOffsets: [[a.offset], [b.offset]] },
      true,
    );
    expect(encoded).toHaveLength(2);
    expect(encoded[1][0][2]).toEqual([6, 6]);
    const plain = geometryPolygons(
      {
        type: 'Polygon',
        coordinates: [
          [
            [1, 1],
            [2, 1],
            [2, 2],
            [1, 1],
          ],
        ],
      },
      false,
    );
    expect(plain[0][0][1]).toEqual([2, 1]);
  });

  it('tells an encoded collection from a decoded one', () => {
    const feature = (coordinates: unknown) => ({
      type: 'Feature' as const,
      properties: {},
      geometry: { type: 'Polygon' as const, coordinates },
    });
    expect(isEncoded({ type: 'FeatureCollection', UTF8Encoding: true, features: [feature(['@@AB'])] })).toBe(true);
    // Some files keep the flag after being decoded.
    expect(isEncoded({ type: 'FeatureCollection', UTF8Encoding: true, features: [feature([[[1, 2]]])] })).toBe(false);
    expect(isEncoded({ type: 'FeatureCollection', features: [feature([[[1, 2]]])] })).toBe(false);
  });
});
