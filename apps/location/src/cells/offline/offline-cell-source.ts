import type { CellKey, CellLocation, CellSource } from '../cell-source.port';
import type { CellIndex } from './cell-index';

/** Cells from an OpenCelliD export loaded at start (`CELL_TOWERS_FILE`). */
export class OfflineCellSource implements CellSource {
  readonly name = 'offline';

  constructor(private readonly index: CellIndex) {}

  get size(): number {
    return this.index.size;
  }

  locate(cell: CellKey): Promise<CellLocation | null> {
    return Promise.resolve(this.index.get(cell));
  }
}
