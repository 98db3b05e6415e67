import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MainlandChina } from '../../geo/mainland-china';
import { CountyIndex } from '../../geodata/county-index';
import { CHINA_GEODATA_FILE, WORLD_CITIES_FILE, WORLD_COUNTRIES_FILE, defaultDataDir } from '../../geodata/geodata-files';
import { decodeGeodata, releaseBuffer } from '../../geodata/geodata-format';
import { decodeWorldCities } from '../../geodata/world-cities-format';
import { Geocoder } from '../geocoder.port';
import { DivisionTable } from './divisions';
import { OfflineGeocoder } from './offline.geocoder';
import { CountryBorders, NearestCities } from './world-places';

export { OfflineGeocoder } from './offline.geocoder';

export interface OfflineGeocoderOptions {
  /** Folder holding the assets; default: the app's `src/data` (found from `src` and `dist`). */
  dataDir?: string;
  /** Name the nearest GeoNames place abroad (default true); false: the country only. */
  worldCities?: boolean;
  /** Furthest place named for a point abroad, in km (default 100). */
  nearestCityMaxKm?: number;
  /** A point in China outside every polygon takes the county this near, in degrees (default 0.03, ~3 km). */
  coastToleranceDegrees?: number;
  /**
   * The mainland test the app already loaded (`MainlandChinaModule`): its country borders are
   * reused, not read and indexed a second time. Default: loaded from the data folder.
   */
  mainland?: MainlandChina;
}

/** Loads the built assets (a few hundred milliseconds) and returns the `offline` geocoder. */
export async function createOfflineGeocoder(options: OfflineGeocoderOptions = {}): Promise<Geocoder & OfflineGeocoder> {
  const dataDir = options.dataDir ?? defaultDataDir();
  const withCities = options.worldCities ?? true;
  const [china, mainland, world] = await Promise.all([
    readFile(path.join(dataDir, CHINA_GEODATA_FILE)),
    options.mainland ?? MainlandChina.load(path.join(dataDir, WORLD_COUNTRIES_FILE)),
    withCities ? readFile(path.join(dataDir, WORLD_CITIES_FILE)) : Promise.resolve(undefined),
  ]);
  const geodata = decodeGeodata(china);
  releaseBuffer(china);
  const towns = geodata.header.towns;
  // Held by the town matcher from here on, not by the header.
  delete geodata.header.towns;
  const geocoder = new OfflineGeocoder({
    counties: new CountyIndex(geodata),
    divisions: new DivisionTable(geodata.header),
    towns,
    countries: new CountryBorders(mainland.borders, mainland.bordersIndex),
    mainland,
    cities: world ? new NearestCities(decodeWorldCities(world)) : undefined,
    nearestCityMaxKm: options.nearestCityMaxKm ?? 100,
    coastToleranceDegrees: options.coastToleranceDegrees ?? 0.03,
  });
  if (world) releaseBuffer(world);
  return geocoder;
}
