/**
 * The cell-source port: where a base station (mcc, mnc, lac, cellid) is. Adapters:
 * `offline` (an OpenCelliD CSV export loaded into memory) and `opencellid` (its web API),
 * chosen by `CELL_SOURCE`.
 */

/** A cell's identity as the request gives it (LTE: lac = TAC, cellid = ECI). */
export interface CellKey {
  mcc: number;
  mnc: number;
  lac: number;
  cellid: number;
}

/** Where a cell is, in WGS-84 (OpenCelliD's datum). */
export interface CellLocation {
  longitude: number;
  latitude: number;
  /** Estimated coverage radius in metres, when known. */
  range?: number;
}

export interface CellSource {
  readonly name: string;
  /** `null` when the cell is unknown. Throws `UpstreamUnavailableError` (upstream/) when an online source fails. */
  locate(cell: CellKey): Promise<CellLocation | null>;
  close?(): Promise<void>;
}

/** DI token of the configured `CellSource`. */
export const CELL_SOURCE = Symbol('CELL_SOURCE');
