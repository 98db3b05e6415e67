import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiException, InvalidParameterException, LbsCodes, LbsStat, type LbsStatValue } from '@geoaccount/api';
import { LOOKUP_CACHE, type LookupCache } from '../cache/lookup-cache.port';
import { SingleFlight } from '../cache/single-flight';
import { CELL_SOURCE, type CellSource } from '../cells/cell-source.port';
import { LocationConfig } from '../config/location.config';
import { type MainlandTest, convertDatum } from '../geo/coord-transform';
import { MainlandChina } from '../geo/mainland-china';
import { GEOCODER, type Geocoder, type Place, UpstreamUnavailableError } from '../geocoder/geocoder.port';
import { UpstreamTimeoutError } from '../upstream/upstream-policy';
import { type KeyContext, canonicalDegrees, canonicalDigits, canonicalText, formatDegrees, lookupKey } from './lookup-key';

/** The fields of an answer besides code, resultDesc and lbsStat; unknown values are `null`. */
export type LbsFields = Record<string, string | null>;

export interface LbsAnswer extends LbsFields {
  code: string;
  resultDesc: string;
  lbsStat: LbsStatValue;
}

interface Lookup {
  fields: LbsFields;
  fromCache: boolean;
}

/** The address fields of lbsQuery and baseStationQuery, from a place (all `null` without one). */
export function addressFields(place: Place | null): LbsFields {
  return {
    provinceName: place?.provinceName ?? null,
    provinceCode: place?.provinceCode ?? null,
    areaName: place?.areaName ?? null,
    areaCode: place?.areaCode ?? null,
    standardCode: place?.standardCode ?? null,
    country: place?.country ?? null,
    address: place?.address ?? null,
  };
}

/**
 * The rules of the three operations: canonical parameters, datum conversion (in mainland China
 * only, whatever the adapter; tested on the coordinates in the datum they come in, either datum
 * giving the same answer since the shift, under 1 km, is finer than the border), the cache
 * (key from the lookup parameters only, failures never cached, one upstream call per key
 * at a time) and the mapping of outcomes to CONTRACT §8.
 */
@Injectable()
export class LbsService {
  private readonly logger = new Logger('Lbs');
  private readonly flights = new SingleFlight<Lookup>();
  private readonly datum: 'wgs84' | 'gcj02';
  private readonly inMainland: MainlandTest;

  constructor(
    @Inject(GEOCODER) private readonly geocoder: Geocoder,
    @Inject(CELL_SOURCE) private readonly cells: CellSource,
    @Inject(LOOKUP_CACHE) private readonly cache: LookupCache,
    private readonly config: LocationConfig,
    mainland: MainlandChina,
  ) {
    this.datum = config.COORD_SYSTEM;
    this.inMainland = mainland.contains;
  }

  /** Coordinates (in COORD_SYSTEM) → address. */
  lbsQuery(longitude: string, latitude: string): Promise<LbsAnswer> {
    const lon = canonicalDegrees(longitude);
    const lat = canonicalDegrees(latitude);
    return this.answer('lbsQuery', this.geocoder.name, [lon, lat], async () => {
      const [x, y] = convertDatum(Number(lon), Number(lat), this.datum, this.geocoder.datum, this.inMainland);
      const place = await this.geocoder.reverse(x, y);
      return place && addressFields(place);
    });
  }

  /** City + address → coordinates (in COORD_SYSTEM) and the county-level code. */
  addressQuery(cityText: string, addressText: string): Promise<LbsAnswer> {
    const city = canonicalText(cityText);
    const address = canonicalText(addressText);
    if (city === '') throw new InvalidParameterException('param.city', 'missing');
    if (address === '') throw new InvalidParameterException('param.address', 'missing');
    return this.answer('addressQuery', this.geocoder.name, [city, address], async () => {
      const place = await this.geocoder.forward(city, address);
      if (!place) return null;
      const [x, y] = convertDatum(place.longitude, place.latitude, this.geocoder.datum, this.datum, this.inMainland);
      return { longitude: formatDegrees(x), latitude: formatDegrees(y), standardCode: place.standardCode ?? null };
    });
  }

  /** mcc, mnc, lac, cellid → the cell's coordinates (in COORD_SYSTEM) and address. */
  baseStationQuery(mccText: string, mncText: string, lacText: string, cellidText: string): Promise<LbsAnswer> {
    const parts = [mccText, mncText, lacText, cellidText].map(canonicalDigits);
    const [mcc, mnc, lac, cellid] = parts.map(Number) as [number, number, number, number];
    const source = `${this.cells.name}+${this.geocoder.name}`;
    return this.answer('baseStationQuery', source, parts, async () => {
      if (![mcc, mnc, lac, cellid].every(Number.isSafeInteger)) return null;
      const cell = await this.cells.locate({ mcc, mnc, lac, cellid });
      if (!cell) return null;
      // OpenCelliD positions are WGS-84.
      const [gx, gy] = convertDatum(cell.longitude, cell.latitude, 'wgs84', this.geocoder.datum, this.inMainland);
      const place = await this.geocoder.reverse(gx, gy);
      const [x, y] = convertDatum(cell.longitude, cell.latitude, 'wgs84', this.datum, this.inMainland);
      return { longitude: formatDegrees(x), latitude: formatDegrees(y), ...addressFields(place) };
    });
  }

  private async answer(operation: string, source: string, parts: string[], compute: () => Promise<LbsFields | null>): Promise<LbsAnswer> {
    const ctx: KeyContext = { prefix: this.config.CACHE_KEY_PREFIX, source, datum: this.datum };
    const key = lookupKey(ctx, operation, parts);
    const { fields, fromCache } = await this.flights.run(key, () => this.lookup(key, compute));
    const result = fromCache ? LbsCodes.OK_CACHE : LbsCodes.OK_UPSTREAM;
    return { code: result.code, resultDesc: result.message, lbsStat: fromCache ? LbsStat.CACHE : LbsStat.UPSTREAM, ...fields };
  }

  private async lookup(key: string, compute: () => Promise<LbsFields | null>): Promise<Lookup> {
    const cached = parseCached(await this.cache.get(key));
    if (cached) return { fields: cached, fromCache: true };
    let fields: LbsFields | null;
    try {
      fields = await compute();
    } catch (err) {
      if (!(err instanceof UpstreamUnavailableError)) throw err;
      this.logger.debug(`upstream failure: ${err.message}`);
      throw new ApiException(LbsCodes.UPSTREAM_UNAVAILABLE, err instanceof UpstreamTimeoutError ? 'upstream timed out' : undefined);
    }
    // "Nothing found" is a failure: answered 404 and, like every failure, not cached.
    if (!fields) throw new ApiException(LbsCodes.NOT_FOUND);
    await this.cache.set(key, JSON.stringify(fields), this.config.CACHE_TTL_SECONDS);
    return { fields, fromCache: false };
  }
}

function parseCached(text: string | undefined): LbsFields | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as LbsFields) : undefined;
  } catch {
    return undefined;
  }
}
