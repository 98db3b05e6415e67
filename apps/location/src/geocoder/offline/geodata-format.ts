/**
 * The compact geodata asset (`src/data/china-geodata.bin.gz`), gzip of:
 *
 *   "GEOD" | u32 LE header length | header (UTF-8 JSON, `GeodataHeader`) | polygon stream
 *
 * Polygon stream, unsigned LEB128 varints: per polygon its division index and ring count
 * (first ring outer, the rest holes), per ring its point count, then per point the zig-zag
 * delta of x and y against the previous point of the stream, in units of 1/scale degree.
 * Coordinates are GCJ-02, as in the source polygons.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { TownTable } from './town-matcher';

export const GEODATA_MAGIC = 'GEOD';
export const GEODATA_FORMAT = 1;

/** `[code, name, seatLongitude, seatLatitude]`; seats are in degrees (GCJ-02). */
export type DivisionRow = [code: string, name: string, lon: number, lat: number];

export interface GeodataHeader {
  format: number;
  /** Integer units per degree of the polygon coordinates. */
  scale: number;
  /** Vintage of the division codes, e.g. "2023". */
  codeVintage: string;
  /** Douglas–Peucker tolerance applied, in degrees. */
  simplifyTolerance: number;
  builtFrom: string[];
  provinces: DivisionRow[];
  prefectures: DivisionRow[];
  /**
   * County-level divisions the polygons point to. Hong Kong, Macao and Taiwan districts carry
   * their region's code (810000 / 820000 / 710000): they have no county codes of their own.
   */
  counties: DivisionRow[];
  /** Towns and sub-districts (乡镇街道) for forward geocoding (see `town-matcher.ts`). */
  towns?: TownTable;
  polygonCount: number;
  pointCount: number;
}

/** A polygon in integer units: rings as flat [x0, y0, x1, y1, ...] arrays. */
export interface EncodedPolygon {
  division: number;
  rings: Int32Array[];
}

export interface Geodata {
  header: GeodataHeader;
  /**
   * All coordinates, flat x,y pairs in 1/scale degree, relative to their polygon's origin
   * (`originX/Y`, the south-west corner of its box): 16 bits per value instead of 32.
   */
  coords: Uint16Array;
  /** Start (in points) of every ring in `coords`, plus one final end entry. */
  ringStart: Uint32Array;
  /** Per polygon: its first ring index; `polyRing[i + 1]` ends it (one extra entry). */
  polyRing: Uint32Array;
  /** Per polygon: index into `header.counties`. */
  polyDivision: Uint32Array;
  /** Per polygon: its bounding box in 1/scale degree (absolute). */
  originX: Int32Array;
  originY: Int32Array;
  maxX: Int32Array;
  maxY: Int32Array;
}

/** Widest polygon the 16-bit local coordinates hold, in units. */
export const MAX_POLYGON_SPAN = 0xffff;

class ByteWriter {
  private buf = new Uint8Array(1 << 20);
  length = 0;

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  varint(value: number): void {
    if (!Number.isInteger(value) || value < 0) throw new Error(`varint out of range: ${value}`);
    this.ensure(10);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.length++] = v;
  }

  svarint(value: number): void {
    this.varint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

export function encodeGeodata(header: Omit<GeodataHeader, 'format' | 'polygonCount' | 'pointCount'>, polygons: EncodedPolygon[]): Buffer {
  const body = new ByteWriter();
  let prevX = 0;
  let prevY = 0;
  let pointCount = 0;
  for (const polygon of polygons) {
    body.varint(polygon.division);
    body.varint(polygon.rings.length);
    for (const ring of polygon.rings) {
      const n = ring.length / 2;
      body.varint(n);
      for (let i = 0; i < ring.length; i += 2) {
        body.svarint(ring[i] - prevX);
        body.svarint(ring[i + 1] - prevY);
        prevX = ring[i];
        prevY = ring[i + 1];
      }
      pointCount += n;
    }
  }
  const full: GeodataHeader = { format: GEODATA_FORMAT, ...header, polygonCount: polygons.length, pointCount };
  const json = Buffer.from(JSON.stringify(full), 'utf8');
  const head = Buffer.alloc(8);
  head.write(GEODATA_MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.length, 4);
  return gzipSync(Buffer.concat([head, json, body.bytes()]), { level: 9 });
}

export function decodeGeodata(gz: Buffer): Geodata {
  // One big output chunk: many small ones fragment the heap and keep the RSS up after loading.
  const raw = gunzipSync(gz, { chunkSize: 32 * 1024 * 1024 });
  if (raw.toString('latin1', 0, 4) !== GEODATA_MAGIC) throw new Error('not a geodata asset (bad magic)');
  const jsonLength = raw.readUInt32LE(4);
  const header = JSON.parse(raw.toString('utf8', 8, 8 + jsonLength)) as GeodataHeader;
  if (header.format !== GEODATA_FORMAT) throw new Error(`unsupported geodata format ${header.format}`);

  const coords = new Uint16Array(header.pointCount * 2);
  const polyRing = new Uint32Array(header.polygonCount + 1);
  const polyDivision = new Uint32Array(header.polygonCount);
  const originX = new Int32Array(header.polygonCount);
  const originY = new Int32Array(header.polygonCount);
  const maxX = new Int32Array(header.polygonCount);
  const maxY = new Int32Array(header.polygonCount);
  const ringStarts: number[] = [];
  const bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.length);
  const end = bytes.length;
  let pos = 8 + jsonLength;
  const readVarint = (): number => {
    let result = 0;
    let mul = 1;
    for (;;) {
      if (pos >= end) throw new Error('truncated geodata asset');
      const b = bytes[pos++];
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 0x80;
    }
  };
  // Absolute coordinates of the polygon being read, before they are made relative.
  let scratch = new Int32Array(1 << 16);
  let x = 0;
  let y = 0;
  let point = 0;
  const maxPoint = header.pointCount;
  for (let p = 0; p < header.polygonCount; p++) {
    polyDivision[p] = readVarint();
    polyRing[p] = ringStarts.length;
    const rings = readVarint();
    const first = point;
    let minPX = Infinity;
    let minPY = Infinity;
    let maxPX = -Infinity;
    let maxPY = -Infinity;
    for (let r = 0; r < rings; r++) {
      ringStarts.push(point);
      const n = readVarint();
      if (point + n > maxPoint) throw new Error('geodata asset is inconsistent with its header');
      if ((point + n - first) * 2 > scratch.length) {
        const bigger = new Int32Array(Math.max(scratch.length * 2, (point + n - first) * 2));
        bigger.set(scratch);
        scratch = bigger;
      }
      // The hot loop: coordinate deltas are small, so decode the (at most 4-byte) varints inline.
      for (let i = 0; i < n; i++) {
        let v = 0;
        let shift = 0;
        let b: number;
        do {
          if (pos >= end) throw new Error('truncated geodata asset');
          b = bytes[pos++];
          v |= (b & 0x7f) << shift;
          shift += 7;
        } while (b & 0x80);
        x += (v >>> 1) ^ -(v & 1);
        v = 0;
        shift = 0;
        do {
          if (pos >= end) throw new Error('truncated geodata asset');
          b = bytes[pos++];
          v |= (b & 0x7f) << shift;
          shift += 7;
        } while (b & 0x80);
        y += (v >>> 1) ^ -(v & 1);
        const k = (point - first) * 2;
        scratch[k] = x;
        scratch[k + 1] = y;
        if (x < minPX) minPX = x;
        if (x > maxPX) maxPX = x;
        if (y < minPY) minPY = y;
        if (y > maxPY) maxPY = y;
        point++;
      }
    }
    if (point === first) throw new Error('geodata asset has an empty polygon');
    if (maxPX - minPX > MAX_POLYGON_SPAN || maxPY - minPY > MAX_POLYGON_SPAN)
      throw new Error(`geodata polygon ${p} is too wide for 16-bit coordinates`);
    originX[p] = minPX;
    originY[p] = minPY;
    maxX[p] = maxPX;
    maxY[p] = maxPY;
    for (let k = 0; k < (point - first) * 2; k += 2) {
      coords[first * 2 + k] = scratch[k] - minPX;
      coords[first * 2 + k + 1] = scratch[k + 1] - minPY;
    }
  }
  if (point !== header.pointCount || pos !== end) throw new Error('geodata asset is inconsistent with its header');
  polyRing[header.polygonCount] = ringStarts.length;
  ringStarts.push(point);
  return { header, coords, ringStart: Uint32Array.from(ringStarts), polyRing, polyDivision, originX, originY, maxX, maxY };
}
