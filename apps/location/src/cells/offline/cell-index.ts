import type { CellKey, CellLocation } from '../cell-source.port';

/**
 * Cells in sorted typed arrays (about 28 bytes a cell), looked up by binary search.
 * A cell's key is two exact doubles: `hi` = (mcc·1000 + mnc)·2²⁴ + lac, `lo` = cellid, so
 * mcc/mnc up to 999, lac up to 2²⁴−1 (NR TAC) and cellid up to 2⁵³ (NR NCI) all fit.
 */
const LAC_SPAN = 2 ** 24;
export const MAX_LAC = LAC_SPAN - 1;

export function isIndexableCell(c: CellKey): boolean {
  return (
    Number.isInteger(c.mcc) &&
    c.mcc >= 0 &&
    c.mcc <= 999 &&
    Number.isInteger(c.mnc) &&
    c.mnc >= 0 &&
    c.mnc <= 999 &&
    Number.isInteger(c.lac) &&
    c.lac >= 0 &&
    c.lac <= MAX_LAC &&
    Number.isSafeInteger(c.cellid) &&
    c.cellid >= 0
  );
}

function hiKey(c: CellKey): number {
  return (c.mcc * 1000 + c.mnc) * LAC_SPAN + c.lac;
}

export class CellIndex {
  constructor(
    private readonly hi: Float64Array,
    private readonly lo: Float64Array,
    /** Microdegrees. */
    private readonly lon: Int32Array,
    private readonly lat: Int32Array,
    private readonly range: Uint32Array,
  ) {}

  get size(): number {
    return this.hi.length;
  }

  get(cell: CellKey): CellLocation | null {
    if (!isIndexableCell(cell)) return null;
    const h = hiKey(cell);
    const l = cell.cellid;
    let low = 0;
    let high = this.hi.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const mh = this.hi[mid]!;
      const ml = this.lo[mid]!;
      if (mh < h || (mh === h && ml < l)) low = mid + 1;
      else if (mh > h || ml > l) high = mid - 1;
      else {
        const range = this.range[mid]!;
        return { longitude: this.lon[mid]! / 1e6, latitude: this.lat[mid]! / 1e6, ...(range > 0 ? { range } : {}) };
      }
    }
    return null;
  }
}

/** Collects cells in growable typed arrays, then sorts them into a `CellIndex`. */
export class CellIndexBuilder {
  private capacity = 1 << 12;
  private count = 0;
  private hi = new Float64Array(this.capacity);
  private lo = new Float64Array(this.capacity);
  private lon = new Int32Array(this.capacity);
  private lat = new Int32Array(this.capacity);
  private range = new Uint32Array(this.capacity);
  private samples = new Uint32Array(this.capacity);

  get size(): number {
    return this.count;
  }

  /** Adds a cell (coordinates in degrees); false when it cannot be indexed. */
  add(cell: CellKey, longitude: number, latitude: number, range = 0, samples = 0): boolean {
    if (!isIndexableCell(cell)) return false;
    if (!(longitude >= -180 && longitude <= 180 && latitude >= -90 && latitude <= 90)) return false;
    if (this.count === this.capacity) this.grow();
    const i = this.count++;
    this.hi[i] = hiKey(cell);
    this.lo[i] = cell.cellid;
    this.lon[i] = Math.round(longitude * 1e6);
    this.lat[i] = Math.round(latitude * 1e6);
    this.range[i] = range > 0 && range < 2 ** 32 ? Math.round(range) : 0;
    this.samples[i] = samples > 0 && samples < 2 ** 32 ? Math.round(samples) : 0;
    return true;
  }

  /**
   * Sorts by key; of the rows with the same key (the same numbers under another radio,
   * or a repeated row) the one with the most samples wins.
   */
  build(): CellIndex {
    const n = this.count;
    const { hi, lo } = this;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => hi[a]! - hi[b]! || lo[a]! - lo[b]!);
    let unique = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      if (unique > 0) {
        const prev = order[unique - 1]!;
        if (hi[prev] === hi[i] && lo[prev] === lo[i]) {
          if (this.samples[i]! > this.samples[prev]!) order[unique - 1] = i;
          continue;
        }
      }
      order[unique++] = i;
    }
    const out = {
      hi: new Float64Array(unique),
      lo: new Float64Array(unique),
      lon: new Int32Array(unique),
      lat: new Int32Array(unique),
      range: new Uint32Array(unique),
    };
    for (let k = 0; k < unique; k++) {
      const i = order[k]!;
      out.hi[k] = hi[i]!;
      out.lo[k] = lo[i]!;
      out.lon[k] = this.lon[i]!;
      out.lat[k] = this.lat[i]!;
      out.range[k] = this.range[i]!;
    }
    this.reset();
    return new CellIndex(out.hi, out.lo, out.lon, out.lat, out.range);
  }

  private grow(): void {
    this.capacity = Math.max(1 << 12, this.capacity * 2);
    const grow = <T extends Float64Array | Int32Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(this.capacity);
      b.set(a);
      return b;
    };
    this.hi = grow(this.hi, (n) => new Float64Array(n));
    this.lo = grow(this.lo, (n) => new Float64Array(n));
    this.lon = grow(this.lon, (n) => new Int32Array(n));
    this.lat = grow(this.lat, (n) => new Int32Array(n));
    this.range = grow(this.range, (n) => new Uint32Array(n));
    this.samples = grow(this.samples, (n) => new Uint32Array(n));
  }

  private reset(): void {
    this.capacity = 0;
    this.count = 0;
    this.hi = new Float64Array(0);
    this.lo = new Float64Array(0);
    this.lon = new Int32Array(0);
    this.lat = new Int32Array(0);
    this.range = new Uint32Array(0);
    this.samples = new Uint32Array(0);
  }
}
