import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { loadCellFile, sampleCellFile } from './cell-file';

const HEADER = 'radio,mcc,net,area,cell,unit,lon,lat,range,samples,changeable,created,updated,averageSignal';

describe('OpenCelliD CSV loading', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cells-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const rows = [
    'GSM,460,0,4000,10000,0,116.391275,39.907501,1561,27,1,1718275874,1724671268,0',
    'LTE,460,11,20002,102400001,12,116.338033,39.885679,1305,58,1,1707625260,1709136892,-95',
    'UMTS,262,2,801,86355,0,13.285512,52.522202,1000,7,1,1282569574,1300155341,0',
    'NR,310,260,16777215,68719476735,0,-122.4194,37.7749,300,3,1,1700000000,1700000000,0',
    'GSM,460,0,notanumber,1,0,116,39,1,1,1,1,1,0',
    'GSM,460,0,4000,10009,0,,39.9,1000,1,1,1,1,0',
    'GSM,460,0,4000',
    '',
  ];

  it('loads a plain file, skipping the header and malformed rows', async () => {
    const path = join(dir, 'cells.csv');
    writeFileSync(path, [HEADER, ...rows].join('\r\n'));
    const { index, stats } = await loadCellFile(path);
    expect(stats).toMatchObject({ rows: 7, skipped: 3, cells: 4, gzip: false });
    expect(index.get({ mcc: 460, mnc: 0, lac: 4000, cellid: 10000 })).toEqual({ longitude: 116.391275, latitude: 39.907501, range: 1561 });
    expect(index.get({ mcc: 460, mnc: 11, lac: 20002, cellid: 102400001 })).toEqual({
      longitude: 116.338033,
      latitude: 39.885679,
      range: 1305,
    });
    expect(index.get({ mcc: 310, mnc: 260, lac: 16777215, cellid: 68719476735 })).toEqual({
      longitude: -122.4194,
      latitude: 37.7749,
      range: 300,
    });
  });

  it('loads a gzip file (told by its first bytes, whatever its name)', async () => {
    const gz = join(dir, 'cells.csv.gz');
    writeFileSync(gz, gzipSync([HEADER, ...rows].join('\n')));
    const a = await loadCellFile(gz);
    expect(a.stats).toMatchObject({ rows: 7, skipped: 3, cells: 4, gzip: true });
    expect(a.index.get({ mcc: 262, mnc: 2, lac: 801, cellid: 86355 })).toEqual({ longitude: 13.285512, latitude: 52.522202, range: 1000 });
    const misnamed = join(dir, 'cells-gz.csv');
    writeFileSync(misnamed, gzipSync(rows.join('\n')));
    expect((await loadCellFile(misnamed)).stats).toMatchObject({ cells: 4, gzip: true });
  });

  it('filters by mobile country code', async () => {
    const path = join(dir, 'mixed.csv');
    writeFileSync(path, [HEADER, ...rows].join('\n'));
    const { index, stats } = await loadCellFile(path, { mcc: new Set([460]) });
    expect(stats.cells).toBe(2);
    expect(index.get({ mcc: 262, mnc: 2, lac: 801, cellid: 86355 })).toBeNull();
  });

  it('fails with the path on a missing or corrupt file', async () => {
    await expect(loadCellFile(join(dir, 'missing.csv'))).rejects.toThrow(/missing\.csv/);
    const corrupt = join(dir, 'corrupt.csv.gz');
    writeFileSync(corrupt, gzipSync(rows.join('\n')).subarray(0, 40));
    const failure = loadCellFile(corrupt);
    await expect(failure).rejects.toThrow('cannot read ');
    await expect(failure).rejects.toThrow('corrupt.csv.gz');
  });

  it('streams a million-row gzip export into the index without holding its text', async () => {
    const n = 1_000_000;
    const path = join(dir, 'big.csv.gz');
    function* lines() {
      yield `${HEADER}\n`;
      for (let block = 0; block < n; block += 10_000) {
        let text = '';
        for (let i = block; i < block + 10_000; i++) {
          const lon = (73 + (i % 6000) / 100).toFixed(6);
          const lat = (18 + (i % 3500) / 100).toFixed(6);
          text += `LTE,460,${i % 3},${i % 65536},${i},0,${lon},${lat},1000,${i % 50},1,1700000000,1700000000,0\n`;
        }
        yield text;
      }
    }
    await pipeline(Readable.from(lines()), createGzip({ level: 1 }), createWriteStream(path));
    const heapBefore = process.memoryUsage().heapUsed;
    const { index, stats } = await loadCellFile(path);
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    expect(stats).toMatchObject({ rows: n, skipped: 0, cells: n, gzip: true });
    const i = 765_432;
    expect(index.get({ mcc: 460, mnc: i % 3, lac: i % 65536, cellid: i })).toEqual({
      longitude: Number((73 + (i % 6000) / 100).toFixed(6)),
      latitude: Number((18 + (i % 3500) / 100).toFixed(6)),
      range: 1000,
    });
    // The text is ~90 MB; the index lives in typed arrays outside the JS heap.
    expect(heapGrowth).toBeLessThan(60 * 1024 * 1024);
    process.stdout.write(`loaded ${n} cells in ${stats.ms} ms\n`);
  }, 120_000);

  it('ships a generated sample in OpenCelliD format', async () => {
    const { index, stats } = await loadCellFile(sampleCellFile());
    expect(stats.skipped).toBe(0);
    expect(stats.cells).toBeGreaterThanOrEqual(300);
    expect(index.get({ mcc: 460, mnc: 0, lac: 4000, cellid: 10000 })).toMatchObject({ longitude: 116.391275, latitude: 39.907501 });
  });
});
