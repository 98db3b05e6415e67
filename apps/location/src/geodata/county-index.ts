/**
 * Point-in-polygon lookup over the county polygons, with a Flatbush R-tree over the polygons'
 * bounding boxes so that a lookup tests only the few polygons whose box holds the point.
 */
import Flatbush from 'flatbush';
import { Geodata } from './geodata-format';

export class CountyIndex {
  private readonly tree: Flatbush;
  /** Per polygon: its area in square units (to prefer an enclave over the polygon around it). */
  private readonly area: Float64Array;
  private readonly scale: number;

  constructor(private readonly data: Geodata) {
    const count = data.header.polygonCount;
    this.scale = data.header.scale;
    this.tree = new Flatbush(Math.max(count, 1));
    this.area = new Float64Array(count);
    for (let p = 0; p < count; p++) {
      let area = 0;
      for (let ring = data.polyRing[p]; ring < data.polyRing[p + 1]; ring++) {
        const a = Math.abs(this.ringArea(ring));
        area += ring === data.polyRing[p] ? a : -a;
      }
      this.area[p] = area;
      this.tree.add(data.originX[p], data.originY[p], data.maxX[p], data.maxY[p]);
    }
    if (count === 0) this.tree.add(0, 0, 0, 0);
    this.tree.finish();
  }

  get polygonCount(): number {
    return this.data.header.polygonCount;
  }

  /** Division index of the smallest polygon holding the point, or -1. Degrees in, GCJ-02. */
  lookup(longitude: number, latitude: number): number {
    const x = longitude * this.scale;
    const y = latitude * this.scale;
    let best = -1;
    let bestArea = Infinity;
    for (const p of this.tree.search(x, y, x, y)) {
      if (p >= this.polygonCount) continue;
      if (this.area[p] < bestArea && this.containsPoint(p, x - this.data.originX[p], y - this.data.originY[p])) {
        best = p;
        bestArea = this.area[p];
      }
    }
    return best < 0 ? -1 : this.data.polyDivision[best];
  }

  /**
   * Division index of the polygon nearest to the point within `maxDegrees` (planar distance in
   * degrees, longitude scaled by cos(latitude)), or -1. For points that fall in the slivers the
   * simplification leaves along coasts and borders.
   */
  nearest(longitude: number, latitude: number, maxDegrees: number): number {
    const x = longitude * this.scale;
    const y = latitude * this.scale;
    const k = Math.cos((latitude * Math.PI) / 180);
    const max = maxDegrees * this.scale;
    let best = -1;
    let bestDist = Infinity;
    const candidates = this.tree.search(x - max / k, y - max, x + max / k, y + max);
    for (const p of candidates) {
      if (p >= this.polygonCount) continue;
      const d = this.distanceToPolygon(p, x - this.data.originX[p], y - this.data.originY[p], k);
      if (d < bestDist) {
        bestDist = d;
        best = p;
      }
    }
    return best >= 0 && bestDist <= max ? this.data.polyDivision[best] : -1;
  }

  private ringArea(ring: number): number {
    const { steps, ringStart, ringX, ringY } = this.data;
    let px = ringX[ring];
    let py = ringY[ring];
    let sum = 0;
    for (let i = ringStart[ring] + 1; i < ringStart[ring + 1]; i++) {
      const x = px + steps[i * 2];
      const y = py + steps[i * 2 + 1];
      sum += (px - x) * (py + y);
      px = x;
      py = y;
    }
    // The closing edge, back to the first point.
    sum += (px - ringX[ring]) * (py + ringY[ring]);
    return sum / 2;
  }

  /** Even-odd rule over all rings of the polygon (holes included); x, y relative to its origin. */
  containsPoint(polygon: number, x: number, y: number): boolean {
    const { steps, ringStart, polyRing, ringX, ringY } = this.data;
    let inside = false;
    for (let ring = polyRing[polygon]; ring < polyRing[polygon + 1]; ring++) {
      const fx = ringX[ring];
      const fy = ringY[ring];
      let px = fx;
      let py = fy;
      const last = ringStart[ring + 1];
      for (let i = ringStart[ring] + 1; i <= last; i++) {
        // Walks the ring's steps, then closes it back to its first point.
        const cx = i < last ? px + steps[i * 2] : fx;
        const cy = i < last ? py + steps[i * 2 + 1] : fy;
        if (cy > y !== py > y && x < ((px - cx) * (y - cy)) / (py - cy) + cx) inside = !inside;
        px = cx;
        py = cy;
      }
    }
    return inside;
  }

  private distanceToPolygon(polygon: number, x: number, y: number, k: number): number {
    if (this.containsPoint(polygon, x, y)) return 0;
    const { steps, ringStart, polyRing, ringX, ringY } = this.data;
    let best = Infinity;
    for (let ring = polyRing[polygon]; ring < polyRing[polygon + 1]; ring++) {
      const fx = ringX[ring];
      const fy = ringY[ring];
      let px = fx;
      let py = fy;
      const last = ringStart[ring + 1];
      for (let i = ringStart[ring] + 1; i <= last; i++) {
        const cx = i < last ? px + steps[i * 2] : fx;
        const cy = i < last ? py + steps[i * 2 + 1] : fy;
        const d = segmentDistance(x * k, y, px * k, py, cx * k, cy);
        if (d < best) best = d;
        px = cx;
        py = cy;
      }
    }
    return best;
  }
}

function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return Math.sqrt(ex * ex + ey * ey);
}
