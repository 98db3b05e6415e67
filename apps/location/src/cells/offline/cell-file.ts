import { createReadStream, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { CellIndex, CellIndexBuilder } from './cell-index';

export interface CellFileStats {
  /** Data lines read (the header excluded). */
  rows: number;
  /** Lines that were not a valid cell (or filtered out by MCC). */
  skipped: number;
  /** Distinct cells in the index. */
  cells: number;
  gzip: boolean;
  ms: number;
}

export interface CellFileOptions {
  /** Load only cells of these mobile country codes (e.g. 460 for mainland China). */
  mcc?: ReadonlySet<number>;
}

/** The generated sample shipped with the service (src/data/cells-sample.csv), found from src/ or dist/. */
export function sampleCellFile(): string {
  const candidates = [join(__dirname, '..', '..', 'data', 'cells-sample.csv'), join(__dirname, '..', '..', '..', 'src', 'data', 'cells-sample.csv')];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`sample cell file not found (looked in ${candidates.join(', ')})`);
  return found;
}

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await handle.read(magic, 0, 2, 0);
    return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

// Columns of the OpenCelliD export: radio,mcc,net,area,cell,unit,lon,lat,range,samples,changeable,created,updated,averageSignal
const FIELDS_NEEDED = 10;

/**
 * Parses one CSV line into the builder; false when it is not a cell. Reads only the
 * first ten fields, without splitting the whole line.
 */
function addLine(builder: CellIndexBuilder, line: string, fields: string[], mcc?: ReadonlySet<number>): boolean {
  let start = 0;
  for (let f = 0; f < FIELDS_NEEDED; f++) {
    const comma = line.indexOf(',', start);
    const end = comma === -1 ? line.length : comma;
    fields[f] = line.slice(start, end);
    if (comma === -1) {
      if (f < FIELDS_NEEDED - 1) return false;
      break;
    }
    start = comma + 1;
  }
  const int = (s: string): number => (s !== '' && /^\d+$/.test(s) ? Number(s) : NaN);
  const cell = { mcc: int(fields[1]!), mnc: int(fields[2]!), lac: int(fields[3]!), cellid: int(fields[4]!) };
  if (mcc && !mcc.has(cell.mcc)) return false;
  const lon = fields[6] === '' ? NaN : Number(fields[6]);
  const lat = fields[7] === '' ? NaN : Number(fields[7]);
  return builder.add(cell, lon, lat, Number(fields[8]) || 0, Number(fields[9]) || 0);
}

/**
 * Streams an OpenCelliD-format CSV (plain or gzip, told by its first bytes) line by line
 * into a `CellIndex`: the file's text is never held in memory, so exports of millions of
 * rows load in seconds.
 */
export async function loadCellFile(path: string, options: CellFileOptions = {}): Promise<{ index: CellIndex; stats: CellFileStats }> {
  const started = performance.now();
  const gzip = await isGzip(path);
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  const input = gzip ? file.pipe(createGunzip()) : file;
  const builder = new CellIndexBuilder();
  const fields: string[] = new Array<string>(FIELDS_NEEDED);
  let rows = 0;
  let skipped = 0;
  let first = true;
  await new Promise<void>((resolve, reject) => {
    const fail = (err: Error) => {
      lines.close();
      reject(new Error(`cannot read ${path}: ${err.message}`));
    };
    file.on('error', fail);
    if (gzip) input.on('error', fail);
    const lines = createInterface({ input, crlfDelay: Infinity });
    lines.on('line', (raw) => {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (first) {
        first = false;
        if (line.startsWith('radio,')) return;
      }
      if (line === '') return;
      rows++;
      if (!addLine(builder, line, fields, options.mcc)) skipped++;
    });
    lines.on('close', () => resolve());
  });
  const index = builder.build();
  return { index, stats: { rows, skipped, cells: index.size, gzip, ms: Math.round(performance.now() - started) } };
}
