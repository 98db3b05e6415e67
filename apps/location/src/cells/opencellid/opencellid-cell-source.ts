import { UpstreamUnavailableError } from '../../upstream/upstream-errors';
import { UpstreamHttp } from '../../upstream/upstream-http';
import { TransientUpstreamError, type UpstreamPolicy } from '../../upstream/upstream-policy';
import type { CellKey, CellLocation, CellSource } from '../cell-source.port';

export interface OpenCellIdOptions {
  key: string;
  baseUrl: string;
  userAgent: string;
}

/**
 * `/cell/get?format=json` answer → location. OpenCelliD answers errors as
 * `{"error": "...", "code": n}`: 1 is "cell not found" (`null`); 5 (internal error) is worth
 * a retry; the others (bad key, bad input, limits) mean the source is unavailable to us.
 */
export function parseOpenCellId(body: unknown): CellLocation | null {
  const b = (body ?? {}) as Record<string, unknown>;
  if (b.error !== undefined || b.code !== undefined) {
    const code = Number(b.code);
    const message = `opencellid: ${typeof b.error === 'string' ? b.error : 'error'} (code ${String(b.code)})`;
    if (code === 1) return null;
    if (code === 5) throw new TransientUpstreamError(message);
    throw new UpstreamUnavailableError(message);
  }
  const longitude = Number(b.lon);
  const latitude = Number(b.lat);
  if (!Number.isFinite(longitude) || !Number.isFinite(latitude) || Math.abs(longitude) > 180 || Math.abs(latitude) > 90) {
    throw new UpstreamUnavailableError('opencellid: answer without coordinates');
  }
  const range = Number(b.range);
  return { longitude, latitude, ...(range > 0 ? { range } : {}) };
}

/** The OpenCelliD web API (`CELL_SOURCE=opencellid`, `OPENCELLID_KEY`). */
export class OpenCellIdCellSource implements CellSource {
  readonly name = 'opencellid';
  private readonly http: UpstreamHttp;

  constructor(
    private readonly options: OpenCellIdOptions,
    private readonly policy: UpstreamPolicy,
  ) {
    this.http = new UpstreamHttp({ name: 'opencellid', userAgent: options.userAgent });
  }

  locate(cell: CellKey): Promise<CellLocation | null> {
    const url = new URL(`${this.options.baseUrl.replace(/(?<!\/)\/+$/, '')}/cell/get`);
    const params = { key: this.options.key, mcc: cell.mcc, mnc: cell.mnc, lac: cell.lac, cellid: cell.cellid, format: 'json' };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
    return this.policy.run(async (signal) => parseOpenCellId(await this.http.getJson(url, signal)));
  }

  close(): Promise<void> {
    this.http.close();
    return Promise.resolve();
  }
}
