/**
 * Decoding of ECharts' compressed GeoJSON ("UTF8Encoding": true): each ring is a string of
 * character pairs, every character code − 64 being a zig-zag encoded delta of the previous
 * point, in units of 1/scale degree (scale 1024), starting from the ring's `encodeOffsets`.
 * Used by the geodata build step; the service itself reads the compact asset only.
 */

export type Ring = [number, number][];
export type PolygonCoords = Ring[];

export interface GeoJsonGeometry {
  type: 'Polygon' | 'MultiPolygon';
  coordinates: unknown;
  encodeOffsets?: unknown;
}

export interface GeoJsonFeature {
  id?: string | number;
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: GeoJsonGeometry;
}

export interface GeoJsonCollection {
  type: 'FeatureCollection';
  UTF8Encoding?: boolean;
  features: GeoJsonFeature[];
}

export const ECHARTS_SCALE = 1024;

/** Zig-zag decoding: 0,1,2,3,4 → 0,-1,1,-2,2. */
export function zigZagDecode(n: number): number {
  return (n >> 1) ^ -(n & 1);
}

/** Decodes one encoded ring into degrees. */
export function decodeRing(encoded: string, offset: readonly [number, number], scale = ECHARTS_SCALE): Ring {
  if (encoded.length % 2 !== 0) throw new Error('encoded ring has an odd number of characters');
  const ring: Ring = [];
  let prevX = offset[0];
  let prevY = offset[1];
  for (let i = 0; i < encoded.length; i += 2) {
    const x = zigZagDecode(encoded.charCodeAt(i) - 64) + prevX;
    const y = zigZagDecode(encoded.charCodeAt(i + 1) - 64) + prevY;
    prevX = x;
    prevY = y;
    ring.push([x / scale, y / scale]);
  }
  return ring;
}

/** Encodes a ring of degrees the way ECharts does (the inverse of `decodeRing`; used by tests). */
export function encodeRing(ring: Ring, scale = ECHARTS_SCALE): { encoded: string; offset: [number, number] } {
  const pts = ring.map(([x, y]) => [Math.round(x * scale), Math.round(y * scale)] as const);
  const offset: [number, number] = [pts[0]?.[0] ?? 0, pts[0]?.[1] ?? 0];
  let prevX = offset[0];
  let prevY = offset[1];
  let encoded = '';
  for (const [x, y] of pts) {
    const dx = x - prevX;
    const dy = y - prevY;
    prevX = x;
    prevY = y;
    encoded += String.fromCharCode(((dx << 1) ^ (dx >> 31)) + 64, ((dy << 1) ^ (dy >> 31)) + 64);
  }
  return { encoded, offset };
}

/** The polygons of a geometry (decoded when the collection is encoded). */
export function geometryPolygons(geometry: GeoJsonGeometry, encoded: boolean): PolygonCoords[] {
  if (geometry.type === 'Polygon') {
    return [polygonOf(geometry.coordinates, geometry.encodeOffsets, encoded)];
  }
  if (geometry.type === 'MultiPolygon') {
    const coords = geometry.coordinates as unknown[];
    const offsets = geometry.encodeOffsets as unknown[] | undefined;
    return coords.map((p, i) => polygonOf(p, offsets?.[i], encoded));
  }
  throw new Error(`unsupported geometry type ${String((geometry as { type: unknown }).type)}`);
}

function polygonOf(coords: unknown, offsets: unknown, encoded: boolean): PolygonCoords {
  const rings = coords as unknown[];
  if (!encoded) return rings as PolygonCoords;
  const ringOffsets = offsets as [number, number][] | undefined;
  return rings.map((r, i) => {
    const offset = ringOffsets?.[i];
    if (typeof r !== 'string' || !offset) throw new Error('encoded ring without its string or offset');
    return decodeRing(r, offset);
  });
}

/** Whether a collection is still encoded (its flag set and its rings strings). */
export function isEncoded(collection: GeoJsonCollection): boolean {
  if (!collection.UTF8Encoding) return false;
  const g = collection.features[0]?.geometry;
  if (!g) return false;
  const first = g.type === 'Polygon' ? (g.coordinates as unknown[])[0] : ((g.coordinates as unknown[])[0] as unknown[])[0];
  return typeof first === 'string';
}
