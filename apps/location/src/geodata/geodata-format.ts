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

export const GEODATA_MAGIC = 'GEOD';
export const GEODATA_FORMAT = 1;

/**
 * Towns and sub-districts (乡镇街道), compact: `stems` holds the town stems ('|'-separated,
 * sorted), `counties` holds, per stem, the ','-separated base-36 indexes of its counties.
 */
export interface TownTable {
  stems: string;
  counties: string;
}

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
  /** Towns and sub-districts (乡镇街道) for forward geocoding (the geocoder's town matcher). */
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
   * The rings' points as steps from the previous point of their ring, x,y pairs of signed
   * bytes in 1/scale degree (2 bytes a point): a ring's first step is 0,0 from `ringX/Y`.
   * Steps longer than 127 units are cut into several along the same line.
   */
  steps: Int8Array;
  /** Per ring: its first point, relative to its polygon's origin (`originX/Y`). */
  ringX: Uint16Array;
  ringY: Uint16Array;
  /** Start (in points) of every ring in `steps`, plus one final end entry. */
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

/**
 * Frees a large buffer's memory now. Left to the garbage collector, the memory of a buffer read
 * at start waits for a full collection, which an idle service may not run for a long time.
 * Small buffers are left alone: they may share a pool with others.
 */
export function releaseBuffer(buffer: ArrayBufferView): void {
  const memory = buffer.buffer as ArrayBufferLike & { transfer?: (length: number) => ArrayBuffer };
  if (memory.byteLength >= 64 * 1024 && typeof memory.transfer === 'function') memory.transfer(0);
}

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
  const raw = gunzipSync(gz, { chunkSize: Math.max(64 * 1024, gz.readUInt32LE(gz.length - 4) + 1024) });
  if (raw.toString('latin1', 0, 4) !== GEODATA_MAGIC) throw new Error('not a geodata asset (bad magic)');
  const jsonLength = raw.readUInt32LE(4);
  const header = JSON.parse(raw.toString('utf8', 8, 8 + jsonLength)) as GeodataHeader;
  if (header.format !== GEODATA_FORMAT) throw new Error(`unsupported geodata format ${header.format}`);

  const polygons = header.polygonCount;
  const polyRing = new Uint32Array(polygons + 1);
  const polyDivision = new Uint32Array(polygons);
  const originX = new Int32Array(polygons);
  const originY = new Int32Array(polygons);
  const maxX = new Int32Array(polygons);
  const maxY = new Int32Array(polygons);
  const ringStarts: number[] = [];
  const ringXs: number[] = [];
  const ringYs: number[] = [];
  // Cut long steps add a few points: room for them (no copy at the end, which would keep
  // twice the memory in the process's RSS).
  let steps = new Int8Array(header.pointCount * 2 + 16384);
  let stepCount = 0;
  const pushStep = (dx: number, dy: number) => {
    if (stepCount * 2 + 2 > steps.length) {
      const bigger = new Int8Array(steps.length * 2);
      bigger.set(steps);
      steps = bigger;
    }
    steps[stepCount * 2] = dx;
    steps[stepCount * 2 + 1] = dy;
    stepCount++;
  };

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
  // Absolute coordinates of the polygon being read, before they become steps.
  let scratch = new Int32Array(1 << 16);
  const ringLength: number[] = [];
  let x = 0;
  let y = 0;
  let point = 0;
  for (let p = 0; p < polygons; p++) {
    polyDivision[p] = readVarint();
    polyRing[p] = ringStarts.length;
    const rings = readVarint();
    let count = 0;
    let minPX = Infinity;
    let minPY = Infinity;
    let maxPX = -Infinity;
    let maxPY = -Infinity;
    ringLength.length = 0;
    for (let r = 0; r < rings; r++) {
      const n = readVarint();
      if (n === 0 || point + n > header.pointCount) throw new Error('geodata asset is inconsistent with its header');
      ringLength.push(n);
      if ((count + n) * 2 > scratch.length) {
        const bigger = new Int32Array(Math.max(scratch.length * 2, (count + n) * 2));
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
        scratch[count * 2] = x;
        scratch[count * 2 + 1] = y;
        count++;
        if (x < minPX) minPX = x;
        if (x > maxPX) maxPX = x;
        if (y < minPY) minPY = y;
        if (y > maxPY) maxPY = y;
      }
      point += n;
    }
    if (count === 0) throw new Error('geodata asset has an empty polygon');
    if (maxPX - minPX > MAX_POLYGON_SPAN || maxPY - minPY > MAX_POLYGON_SPAN)
      throw new Error(`geodata polygon ${p} is too wide for 16-bit coordinates`);
    originX[p] = minPX;
    originY[p] = minPY;
    maxX[p] = maxPX;
    maxY[p] = maxPY;
    let k = 0;
    for (const n of ringLength) {
      ringStarts.push(stepCount);
      ringXs.push(scratch[k * 2] - minPX);
      ringYs.push(scratch[k * 2 + 1] - minPY);
      pushStep(0, 0);
      for (let i = 1; i < n; i++) {
        const dx = scratch[(k + i) * 2] - scratch[(k + i - 1) * 2];
        const dy = scratch[(k + i) * 2 + 1] - scratch[(k + i - 1) * 2 + 1];
        const parts = Math.ceil(Math.max(Math.abs(dx), Math.abs(dy)) / 127);
        if (parts <= 1) {
          pushStep(dx, dy);
          continue;
        }
        // A long step becomes several along the same line.
        let px = 0;
        let py = 0;
        for (let j = 1; j <= parts; j++) {
          const nx = Math.round((dx * j) / parts);
          const ny = Math.round((dy * j) / parts);
          pushStep(nx - px, ny - py);
          px = nx;
          py = ny;
        }
      }
      k += n;
    }
  }
  if (point !== header.pointCount || pos !== end) throw new Error('geodata asset is inconsistent with its header');
  polyRing[polygons] = ringStarts.length;
  ringStarts.push(stepCount);
  releaseBuffer(raw);
  releaseBuffer(scratch);
  return {
    header,
    steps: steps.subarray(0, stepCount * 2),
    ringX: Uint16Array.from(ringXs),
    ringY: Uint16Array.from(ringYs),
    ringStart: Uint32Array.from(ringStarts),
    polyRing,
    polyDivision,
    originX,
    originY,
    maxX,
    maxY,
  };
}
