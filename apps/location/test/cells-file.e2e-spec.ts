/**
 * baseStationQuery over an OpenCelliD export given by CELL_TOWERS_FILE, plain and gzip
 * (with the offline geocoder naming the place).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type LocationSession, startLocation } from './support/location-session';

const EXPORT = [
  'radio,mcc,net,area,cell,unit,lon,lat,range,samples,changeable,created,updated,averageSignal',
  // People's Square, Shanghai (WGS-84)
  'LTE,460,1,6254,123456789,301,121.469170,31.232960,500,40,1,1600000000,1700000000,-90',
  // Brandenburg Gate, Berlin
  'GSM,262,2,801,86355,0,13.377704,52.516275,1000,7,1,1282569574,1300155341,0',
  'this,is,not,a,cell',
].join('\n');

describe('CELL_TOWERS_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lbs-cells-'));
  const sessions: LocationSession[] = [];
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function boot(env: Record<string, string>): Promise<LocationSession> {
    const s = await startLocation(env);
    sessions.push(s);
    return s;
  }

  it.each([
    ['plain', 'cells.csv', (text: string) => Buffer.from(text)],
    ['gzip', 'cells.csv.gz', (text: string) => gzipSync(text)],
  ])('loads a %s export instead of the sample', async (_kind, name, encode) => {
    const file = join(dir, name);
    writeFileSync(file, encode(EXPORT));
    const s = await boot({ CELL_TOWERS_FILE: file });
    const shanghai = await s.client.baseStationQuery({ mcc: '460', mnc: '1', lac: '6254', cellid: '123456789' });
    expect(shanghai.status).toBe(200);
    expect(shanghai.body).toMatchObject({
      code: '000',
      lbsStat: '1',
      longitude: '121.469170',
      latitude: '31.232960',
      provinceName: '上海市',
      provinceCode: '310000',
      areaCode: '310100',
      standardCode: '310101',
    });
    const berlin = await s.client.baseStationQuery({ mcc: '262', mnc: '2', lac: '801', cellid: '86355' });
    expect(berlin.status).toBe(200);
    expect(berlin.body).toMatchObject({ code: '000', longitude: '13.377704', latitude: '52.516275', standardCode: '', provinceCode: '' });
    expect(typeof berlin.body.country).toBe('string');
    // The sample is not loaded alongside.
    const sample = await s.client.baseStationQuery({ mcc: '460', mnc: '0', lac: '4000', cellid: '10000' });
    expect(sample.status).toBe(404);
    expect(sample.body).toEqual({ code: '099', resultDesc: 'nothing found', lbsStat: '0' });
    const loaded = s.logs.of('Cells').at(-1);
    expect(String(loaded?.msg)).toBe(`${file}: 2 cells from 3 rows (1 skipped) in ${/in (\d+) ms$/.exec(String(loaded?.msg))?.[1]} ms`);
  });

  it('loads only the mobile country codes of CELL_TOWERS_MCC', async () => {
    const file = join(dir, 'filtered.csv');
    writeFileSync(file, EXPORT);
    const s = await boot({ CELL_TOWERS_FILE: file, CELL_TOWERS_MCC: '460' });
    expect((await s.client.baseStationQuery({ mcc: '460', mnc: '1', lac: '6254', cellid: '123456789' })).status).toBe(200);
    expect((await s.client.baseStationQuery({ mcc: '262', mnc: '2', lac: '801', cellid: '86355' })).status).toBe(404);
  });

  it('refuses to start on a missing file, naming it', async () => {
    await expect(startLocation({ CELL_TOWERS_FILE: join(dir, 'nope.csv') })).rejects.toThrow(/nope\.csv/);
  });
});
