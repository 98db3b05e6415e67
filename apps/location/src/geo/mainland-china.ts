/**
 * Where the GCJ-02 datum shift applies: mainland China, that is China (CN) without Hong Kong,
 * Macao and Taiwan. Decided from the country borders asset (`world-countries.bin.gz`:
 * country-coder's borders with territorial waters, WGS-84, simplified at 1/128°), where CN is
 * the mainland with Hainan and the other islands and holes for Hong Kong and Macao.
 *
 * The rule: the point is within the CN border and in no Hong Kong, Macao or Taiwan border
 * (Kinmen and Matsu lie in the CN border's waters); or it is in no country's border and the
 * nearest border within the tolerance is CN's (beaches and rocks the simplified border leaves
 * out). The test: a box around the CN border rejects most of the world at once; inside it, a
 * grid of 1/8° cells answers at once wherever no border comes within the tolerance of the
 * cell, and the rule is evaluated on the borders in the other cells (about one in ten).
 */
import { readFile } from 'node:fs/promises';
import { CountyIndex } from '../geodata/county-index';
import { type Geodata, decodeGeodata } from '../geodata/geodata-format';
import type { MainlandTest } from './coord-transform';

/** The regions of China outside the mainland, with borders of their own in the asset. */
const EXCLUDED = new Set(['HK', 'MO', 'TW']);

/** Default tolerance beyond the CN border at sea, in degrees (about 5 km). */
export const MAINLAND_COAST_TOLERANCE_DEGREES = 0.05;

/** Side of a grid cell, in degrees. */
const CELL_DEGREES = 1 / 8;
const OUT = 0;
const IN = 1;
/** A border passes within the tolerance of the cell: evaluate the rule. */
const BORDER = 2;

export class MainlandChina {
  /** The test, bound to this instance, to pass to the datum conversion. */
  readonly contains: MainlandTest = (longitude, latitude) => this.test(longitude, latitude);

  private readonly index: CountyIndex;
  private readonly scale: number;
  private readonly mainland: number[] = [];
  private readonly excluded: number[] = [];
  private readonly mainlandDivisions = new Set<number>();
  /** The box around the CN border, widened by the tolerance (degrees). */
  private readonly box: { west: number; south: number; east: number; north: number };
  private readonly columns: number;
  private readonly rows: number;
  /** Per cell of the box, row by row from the south-west: OUT, IN or BORDER. */
  private readonly grid: Uint8Array;

  constructor(
    private readonly data: Geodata,
    private readonly toleranceDegrees = MAINLAND_COAST_TOLERANCE_DEGREES,
  ) {
    const { counties, polygonCount, scale } = data.header;
    this.scale = scale;
    counties.forEach(([iso], i) => {
      if (iso === 'CN') this.mainlandDivisions.add(i);
    });
    let west = Infinity;
    let south = Infinity;
    let east = -Infinity;
    let north = -Infinity;
    for (let p = 0; p < polygonCount; p++) {
      const division = data.polyDivision[p];
      if (this.mainlandDivisions.has(division)) {
        this.mainland.push(p);
        west = Math.min(west, data.originX[p] / scale);
        south = Math.min(south, data.originY[p] / scale);
        east = Math.max(east, data.maxX[p] / scale);
        north = Math.max(north, data.maxY[p] / scale);
      } else if (EXCLUDED.has(counties[division][0])) {
        this.excluded.push(p);
      }
    }
    if (this.mainland.length === 0) throw new Error('the country borders asset has no CN border');
    // The tolerance is measured with longitude scaled by cos(latitude): a degree of longitude
    // is shortest at the box's edge furthest from the equator.
    const widen = toleranceDegrees / Math.cos(((Math.max(Math.abs(north), Math.abs(south)) + toleranceDegrees) * Math.PI) / 180);
    this.box = { west: west - widen, south: south - toleranceDegrees, east: east + widen, north: north + toleranceDegrees };
    this.index = new CountyIndex(data);
    this.columns = Math.max(1, Math.ceil((this.box.east - this.box.west) / CELL_DEGREES));
    this.rows = Math.max(1, Math.ceil((this.box.north - this.box.south) / CELL_DEGREES));
    this.grid = this.buildGrid(widen);
  }

  /** Reads and decodes the country borders asset (a few milliseconds). */
  static async load(file: string, toleranceDegrees?: number): Promise<MainlandChina> {
    return new MainlandChina(decodeGeodata(await readFile(file)), toleranceDegrees);
  }

  /** The decoded country borders the test is built from (the offline geocoder's countries too). */
  get borders(): Geodata {
    return this.data;
  }

  /** The polygon index of `borders`. */
  get bordersIndex(): CountyIndex {
    return this.index;
  }

  /** Share of the box's cells where the rule is evaluated on the borders. */
  get borderCellShare(): number {
    return this.grid.reduce((n, cell) => n + (cell === BORDER ? 1 : 0), 0) / this.grid.length;
  }

  private test(longitude: number, latitude: number): boolean {
    const { box } = this;
    // Also false for NaN.
    if (!(longitude >= box.west && longitude <= box.east && latitude >= box.south && latitude <= box.north)) return false;
    const cell = this.grid[this.cellAt(longitude, latitude)];
    return cell === BORDER ? this.rule(longitude, latitude) : cell === IN;
  }

  private cellAt(longitude: number, latitude: number): number {
    const column = Math.min(this.columns - 1, Math.floor((longitude - this.box.west) / CELL_DEGREES));
    const row = Math.min(this.rows - 1, Math.floor((latitude - this.box.south) / CELL_DEGREES));
    return row * this.columns + column;
  }

  /** The rule on the borders themselves, without the grid (a point inside the box). */
  rule(longitude: number, latitude: number): boolean {
    const x = longitude * this.scale;
    const y = latitude * this.scale;
    if (this.inAny(this.mainland, x, y)) return !this.inAny(this.excluded, x, y);
    if (this.toleranceDegrees <= 0) return false;
    // In another border the nearest is that one (distance 0); at sea, the nearest border decides.
    return this.mainlandDivisions.has(this.index.nearest(longitude, latitude, this.toleranceDegrees));
  }

  /**
   * Marks BORDER every cell that a segment of any border comes within the tolerance of (through
   * the segment's box, widened); elsewhere the answer cannot change within a cell nor between
   * two neighbouring cells, so each connected group of the other cells takes the answer of
   * the rule at one of its cells' centres.
   */
  private buildGrid(widen: number): Uint8Array {
    const { box, columns, rows, data, scale } = this;
    const grid = new Uint8Array(columns * rows).fill(OUT);
    const margin = 1 / scale;
    const mark = (ax: number, ay: number, bx: number, by: number) => {
      const c0 = Math.floor((Math.min(ax, bx) - widen - margin - box.west) / CELL_DEGREES);
      const c1 = Math.floor((Math.max(ax, bx) + widen + margin - box.west) / CELL_DEGREES);
      const r0 = Math.floor((Math.min(ay, by) - this.toleranceDegrees - margin - box.south) / CELL_DEGREES);
      const r1 = Math.floor((Math.max(ay, by) + this.toleranceDegrees + margin - box.south) / CELL_DEGREES);
      if (c1 < 0 || r1 < 0 || c0 >= columns || r0 >= rows) return;
      for (let r = Math.max(0, r0); r <= Math.min(rows - 1, r1); r++)
        grid.fill(BORDER, r * columns + Math.max(0, c0), r * columns + Math.min(columns - 1, c1) + 1);
    };
    const { steps, ringStart, polyRing, ringX, ringY, originX, originY } = data;
    for (let p = 0; p < data.header.polygonCount; p++) {
      if (data.maxX[p] / scale < box.west - widen || originX[p] / scale > box.east + widen) continue;
      if (data.maxY[p] / scale < box.south - widen || originY[p] / scale > box.north + widen) continue;
      for (let ring = polyRing[p]; ring < polyRing[p + 1]; ring++) {
        const fx = originX[p] + ringX[ring];
        const fy = originY[p] + ringY[ring];
        let px = fx;
        let py = fy;
        const last = ringStart[ring + 1];
        for (let i = ringStart[ring] + 1; i <= last; i++) {
          const cx = i < last ? px + steps[i * 2] : fx;
          const cy = i < last ? py + steps[i * 2 + 1] : fy;
          mark(px / scale, py / scale, cx / scale, cy / scale);
          px = cx;
          py = cy;
        }
      }
    }
    // Flood fill of the groups of cells with no border near them.
    const seen = new Uint8Array(grid.length);
    const queue = new Int32Array(grid.length);
    for (let start = 0; start < grid.length; start++) {
      if (grid[start] === BORDER || seen[start]) continue;
      const column = start % columns;
      const row = (start - column) / columns;
      const answer = this.rule(box.west + (column + 0.5) * CELL_DEGREES, box.south + (row + 0.5) * CELL_DEGREES) ? IN : OUT;
      let head = 0;
      let tail = 0;
      queue[tail++] = start;
      seen[start] = 1;
      while (head < tail) {
        const cell = queue[head++];
        grid[cell] = answer;
        const c = cell % columns;
        // West, east, south, north.
        for (let k = 0; k < 4; k++) {
          const n =
            k === 0 ? (c > 0 ? cell - 1 : -1) : k === 1 ? (c < columns - 1 ? cell + 1 : -1) : k === 2 ? cell - columns : cell + columns;
          if (n < 0 || n >= grid.length || seen[n] || grid[n] === BORDER) continue;
          seen[n] = 1;
          queue[tail++] = n;
        }
      }
    }
    return grid;
  }

  private inAny(polygons: number[], x: number, y: number): boolean {
    const { originX, originY, maxX, maxY } = this.data;
    for (const p of polygons) {
      if (x < originX[p] || x > maxX[p] || y < originY[p] || y > maxY[p]) continue;
      if (this.index.containsPoint(p, x - originX[p], y - originY[p])) return true;
    }
    return false;
  }
}
