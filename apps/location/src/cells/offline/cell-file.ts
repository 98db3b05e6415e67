import { createReadStream, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { type CellIndex, CellIndexBuilder } from './cell-index';

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
  const candidates = [
    join(__dirname, '..', '..', 'data', 'cells-sample.csv'),
    join(__dirname, '..', '..', '..', 'src', 'data', 'cells-sample.csv'),
  ];
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

const NL = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const ZERO = 0x30;
const DOT = 0x2e;
const MINUS = 0x2d;
const PLUS = 0x2b;
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);
const HEADER_START = Buffer.from('radio,');

/** Digits only, at most 15 of them; NaN otherwise (an empty field too). */
function parseDigits(buf: Buffer, start: number, end: number): number {
  if (end <= start || end - start > 15) return NaN;
  let value = 0;
  for (let i = start; i < end; i++) {
    const d = buf[i]! - ZERO;
    if (d < 0 || d > 9) return NaN;
    value = value * 10 + d;
  }
  return value;
}

/**
 * A plain decimal (`-122.4194`): exact integer arithmetic and one division, which rounds
 * exactly as `Number()` does; anything unusual goes to `Number()`.
 */
function parseDecimal(buf: Buffer, start: number, end: number): number {
  if (end <= start) return NaN;
  let i = start;
  let sign = 1;
  if (buf[i] === MINUS || buf[i] === PLUS) {
    if (buf[i] === MINUS) sign = -1;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let scale = -1;
  for (; i < end; i++) {
    const c = buf[i]!;
    if (c === DOT && scale < 0) {
      scale = 0;
      continue;
    }
    const d = c - ZERO;
    if (d < 0 || d > 9) return Number(buf.toString('latin1', start, end));
    mantissa = mantissa * 10 + d;
    digits++;
    if (scale >= 0) scale++;
  }
  if (digits === 0) return NaN;
  if (digits > 15) return Number(buf.toString('latin1', start, end));
  return (sign * mantissa) / POW10[scale < 0 ? 0 : scale]!;
}

/**
 * Reads OpenCelliD CSV lines straight from the bytes: each line is parsed where it lies in
 * the chunk (no string per line, no split), and only the bytes of an unfinished last line
 * are carried over to the next chunk.
 */
class CellCsvParser {
  rows = 0;
  skipped = 0;
  private first = true;
  private carry: Buffer | null = null;
  /** Field boundaries of the current line: start of field k at [2k], end at [2k+1]. */
  private readonly bounds = new Int32Array(20);

  constructor(
    private readonly builder: CellIndexBuilder,
    private readonly mcc?: ReadonlySet<number>,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    if (this.carry) {
      const nl = chunk.indexOf(NL);
      if (nl === -1) {
        this.carry = Buffer.concat([this.carry, chunk]);
        return;
      }
      const line = Buffer.concat([this.carry, chunk.subarray(0, nl)]);
      this.carry = null;
      this.line(line, 0, line.length);
      start = nl + 1;
    }
    for (let nl = chunk.indexOf(NL, start); nl !== -1; nl = chunk.indexOf(NL, start)) {
      this.line(chunk, start, nl);
      start = nl + 1;
    }
    // Copied, so that the carried bytes do not keep the whole chunk alive.
    if (start < chunk.length) this.carry = Buffer.from(chunk.subarray(start));
  }

  end(): void {
    if (this.carry) this.line(this.carry, 0, this.carry.length);
    this.carry = null;
  }

  private line(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === CR) end--;
    if (end === start) return;
    if (this.first) {
      this.first = false;
      if (end - start >= HEADER_START.length && buf.compare(HEADER_START, 0, HEADER_START.length, start, start + HEADER_START.length) === 0)
        return;
    }
    this.rows++;
    if (!this.add(buf, start, end)) this.skipped++;
  }

  private add(buf: Buffer, start: number, end: number): boolean {
    // radio,mcc,net,area,cell,unit,lon,lat,range,samples,... : the first ten fields.
    const b = this.bounds;
    let from = start;
    let field = 0;
    while (field < 10) {
      let comma = buf.indexOf(COMMA, from);
      if (comma === -1 || comma > end) comma = end;
      b[2 * field] = from;
      b[2 * field + 1] = comma;
      field++;
      if (comma === end) break;
      from = comma + 1;
    }
    if (field < 10) return false;
    const mcc = parseDigits(buf, b[2]!, b[3]!);
    if (this.mcc && !this.mcc.has(mcc)) return false;
    const cell = { mcc, mnc: parseDigits(buf, b[4]!, b[5]!), lac: parseDigits(buf, b[6]!, b[7]!), cellid: parseDigits(buf, b[8]!, b[9]!) };
    const lon = parseDecimal(buf, b[12]!, b[13]!);
    const lat = parseDecimal(buf, b[14]!, b[15]!);
    return this.builder.add(cell, lon, lat, parseDecimal(buf, b[16]!, b[17]!) || 0, parseDecimal(buf, b[18]!, b[19]!) || 0);
  }
}

/**
 * Streams an OpenCelliD-format CSV (plain or gzip, told by its first bytes) into a
 * `CellIndex`, chunk by chunk: the file's text is never held in memory, so exports of
 * millions of rows load in seconds.
 */
export async function loadCellFile(path: string, options: CellFileOptions = {}): Promise<{ index: CellIndex; stats: CellFileStats }> {
  const started = performance.now();
  const gzip = await isGzip(path);
  const builder = new CellIndexBuilder();
  const parser = new CellCsvParser(builder, options.mcc);
  const consume = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) parser.push(chunk);
  };
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    if (gzip) await pipeline(file, createGunzip({ chunkSize: 1 << 20 }), consume);
    else await pipeline(file, consume);
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
  }
  parser.end();
  const index = builder.build();
  return {
    index,
    stats: { rows: parser.rows, skipped: parser.skipped, cells: index.size, gzip, ms: Math.round(performance.now() - started) },
  };
}
