import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MainlandChina } from '../../geo/mainland-china';
import { Geocoder } from '../geocoder.port';
import { CountyIndex } from './county-index';
import { DivisionTable } from './divisions';
import { decodeGeodata, releaseBuffer } from './geodata-format';
import { OfflineGeocoder } from './offline.geocoder';
import { decodeWorldCities } from './world-cities-format';
import { CountryBorders, NearestCities } from './world-places';

export { OfflineGeocoder } from './offline.geocoder';

export const CHINA_GEODATA_FILE = 'china-geodata.bin.gz';
export const WORLD_CITIES_FILE = 'world-cities.bin.gz';
export const WORLD_COUNTRIES_FILE = 'world-countries.bin.gz';

export interface OfflineGeocoderOptions {
  /** Folder holding the assets; default: the app's `src/data` (found from `src` and `dist`). */
  dataDir?: string;
  /** Name the nearest GeoNames place abroad (default true); false: the country only. */
  worldCities?: boolean;
  /** Furthest place named for a point abroad, in km (default 100). */
  nearestCityMaxKm?: number;
  /** A point in China outside every polygon takes the county this near, in degrees (default 0.03, ~3 km). */
  coastToleranceDegrees?: number;
}

/**
 * The default folder of the assets: the app's `src/data`, found by walking up from this file,
 * so that the sources, the compiled `dist` and the build scripts' output all find it.
 */
export function defaultDataDir(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    for (const candidate of [path.join(dir, 'data'), path.join(dir, 'src', 'data')]) {
      if (existsSync(path.join(candidate, CHINA_GEODATA_FILE))) return candidate;
    }
    dir = path.dirname(dir);
  }
  return path.resolve(__dirname, '..', '..', 'data');
}

/** Loads the built assets (a few hundred milliseconds) and returns the `offline` geocoder. */
export async function createOfflineGeocoder(options: OfflineGeocoderOptions = {}): Promise<Geocoder & OfflineGeocoder> {
  const dataDir = options.dataDir ?? defaultDataDir();
  const withCities = options.worldCities ?? true;
  const [china, countries, world] = await Promise.all([
    readFile(path.join(dataDir, CHINA_GEODATA_FILE)),
    readFile(path.join(dataDir, WORLD_COUNTRIES_FILE)),
    withCities ? readFile(path.join(dataDir, WORLD_CITIES_FILE)) : Promise.resolve(undefined),
  ]);
  const geodata = decodeGeodata(china);
  const borders = decodeGeodata(countries);
  releaseBuffer(china);
  const towns = geodata.header.towns;
  // Held by the town matcher from here on, not by the header.
  delete geodata.header.towns;
  const geocoder = new OfflineGeocoder({
    counties: new CountyIndex(geodata),
    divisions: new DivisionTable(geodata.header),
    towns,
    countries: new CountryBorders(borders),
    mainland: new MainlandChina(borders),
    cities: world ? new NearestCities(decodeWorldCities(world)) : undefined,
    nearestCityMaxKm: options.nearestCityMaxKm ?? 100,
    coastToleranceDegrees: options.coastToleranceDegrees ?? 0.03,
  });
  if (world) releaseBuffer(world);
  return geocoder;
}
