import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiException, InvalidParameterException, LbsCodes, LbsStat, type LbsStatValue } from '@geoaccount/api';
import { JsonText } from '@geoaccount/http';
import { type CacheMetrics, Metrics } from '@geoaccount/observability';
import { LOOKUP_CACHE, type LookupCache } from '../cache/lookup-cache.port';
import { SingleFlight } from '../cache/single-flight';
import { CELL_SOURCE, type CellSource } from '../cells/cell-source.port';
import { LocationConfig } from '../config/location.config';
import { type MainlandTest, convertDatum } from '../geo/coord-transform';
import { MainlandChina } from '../geo/mainland-china';
import { GEOCODER, type Geocoder, type Place } from '../geocoder/geocoder.port';
import { UpstreamUnavailableError } from '../upstream/upstream-errors';
import { UpstreamTimeoutError } from '../upstream/upstream-policy';
import { type KeyContext, RecentKeys, canonicalDegrees, canonicalDigits, canonicalText, formatDegrees, lookupKey } from './lookup-key';

/** The fields of an answer besides code, resultDesc and lbsStat; all text, `""` when unknown (docs/contract.md §13: no `null`). */
export type LbsFields = Record<string, string>;

export interface LbsAnswer extends LbsFields {
  code: string;
  resultDesc: string;
  lbsStat: LbsStatValue;
}

/** A successful answer, serialised once: `value` the `LbsAnswer`, `text` its JSON (libs/http's `JsonText`). */
export type LbsReply = JsonText & { readonly value: LbsAnswer };

interface Lookup {
  fields: LbsFields;
  /** `fields` as JSON text: what the cache holds, and the tail of the answer's text. */
  text: string;
  fromCache: boolean;
}

/** A computed answer; `key`: cache it under this key instead of the request's (an answer that depends on fewer parameters). */
interface Computed {
  fields: LbsFields;
  key?: string;
}

/** The address fields of lbsQuery and baseStationQuery, in the order they are answered. */
const ADDRESS_FIELDS = ['provinceName', 'provinceCode', 'areaName', 'areaCode', 'standardCode', 'country', 'address'] as const;

/**
 * The fields each operation answers besides the envelope: all a cached value of it may hold,
 * and all it must hold (docs/contract.md §13).
 */
export const ANSWER_FIELDS = {
  lbsQuery: ADDRESS_FIELDS,
  addressQuery: ['longitude', 'latitude', 'standardCode'],
  baseStationQuery: ['longitude', 'latitude', ...ADDRESS_FIELDS],
} as const satisfies Record<string, readonly string[]>;

export type LbsOperationName = keyof typeof ANSWER_FIELDS;

/** Longest text of one cached field (an address is far shorter). */
const MAX_CACHED_FIELD = 1024;

/**
 * A cached value as it may be served (docs/contract.md §13): a flat JSON object of exactly the
 * operation's fields, each a string without control characters; anything else (another field,
 * `null`, a nested value, a duplicate key, not JSON) is `undefined`, i.e. a miss. The fields
 * come back in the answer's order, so that the answer's text is made from them, never from the
 * cached text.
 */
export function checkCachedFields(operation: LbsOperationName, text: string): LbsFields | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype)
    return undefined;
  const record = value as Record<string, unknown>;
  const names = ANSWER_FIELDS[operation];
  if (Object.keys(record).length !== names.length) return undefined;
  const fields: LbsFields = {};
  for (const name of names) {
    const field = Object.hasOwn(record, name) ? record[name] : undefined;
    if (typeof field !== 'string' || field.length > MAX_CACHED_FIELD || hasControlCharacter(field)) return undefined;
    fields[name] = field;
  }
  // A duplicate key parses as one (the last): the text must be what the fields serialise to.
  if (JSON.stringify(fields).length !== text.trim().length) return undefined;
  return fields;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** The address fields of lbsQuery and baseStationQuery, from a place (all `""` without one). */
export function addressFields(place: Place | null): LbsFields {
  return {
    provinceName: place?.provinceName ?? '',
    provinceCode: place?.provinceCode ?? '',
    areaName: place?.areaName ?? '',
    areaCode: place?.areaCode ?? '',
    standardCode: place?.standardCode ?? '',
    country: place?.country ?? '',
    address: place?.address ?? '',
  };
}

/**
 * The rules of the three operations: canonical parameters, datum conversion (in mainland China
 * only, whatever the adapter; tested on the coordinates in the datum they come in, either datum
 * giving the same answer since the shift, under 1 km, is finer than the border), the cache
 * (key from the lookup parameters only, failures never cached, one upstream call per key
 * at a time) and the mapping of outcomes to docs/contract.md §8.
 */
@Injectable()
export class LbsService {
  private readonly logger = new Logger('Lbs');
  private readonly flights = new SingleFlight<Lookup>();
  private readonly recentKeys = new RecentKeys();
  private readonly datum: 'wgs84' | 'gcj02';
  private readonly inMainland: MainlandTest;

  constructor(
    @Inject(GEOCODER) private readonly geocoder: Geocoder,
    @Inject(CELL_SOURCE) private readonly cells: CellSource,
    @Inject(LOOKUP_CACHE) private readonly cache: LookupCache,
    private readonly config: LocationConfig,
    mainland: MainlandChina,
    metrics: Metrics,
  ) {
    this.datum = config.COORD_SYSTEM;
    this.inMainland = mainland.contains;
    this.cacheMetrics = metrics.cache();
  }

  private readonly cacheMetrics: CacheMetrics;

  /** Coordinates (in COORD_SYSTEM) → address. */
  lbsQuery(longitude: string, latitude: string, appToken?: string): Promise<LbsReply> {
    // The parameters passed DECIMAL_TEXT: no ' ' in them.
    const key = this.recentKeys.get(`lbsQuery ${longitude} ${latitude} ${this.scopeOf(appToken)}`, () =>
      this.key('lbsQuery', this.geocoder.name, [canonicalDegrees(longitude), canonicalDegrees(latitude)], appToken),
    );
    return this.answer('lbsQuery', key, async () => {
      const [x, y] = convertDatum(
        Number(canonicalDegrees(longitude)),
        Number(canonicalDegrees(latitude)),
        this.datum,
        this.geocoder.datum,
        this.inMainland,
      );
      const place = await this.geocoder.reverse(x, y);
      return place && { fields: addressFields(place) };
    });
  }

  /**
   * City + address → coordinates (in COORD_SYSTEM) and the county-level code. An answer for
   * the city alone (the address added nothing the geocoder knows: a typo, or junk) is cached
   * under the city alone, where an address equal to the city finds it: any number of
   * addresses a city does not know add one entry to the cache, not one each.
   */
  addressQuery(cityText: string, addressText: string, appToken?: string): Promise<LbsReply> {
    const city = canonicalText(cityText);
    const address = canonicalText(addressText);
    if (city === '') throw new InvalidParameterException('param.city', 'missing');
    if (address === '') throw new InvalidParameterException('param.address', 'missing');
    const source = this.geocoder.name;
    const cityKey = this.key('addressQuery', source, [city], appToken);
    const key = address === city ? cityKey : this.key('addressQuery', source, [city, address], appToken);
    return this.answer('addressQuery', key, async () => {
      const place = await this.geocoder.forward(city, address);
      if (!place) return null;
      const [x, y] = convertDatum(place.longitude, place.latitude, this.geocoder.datum, this.datum, this.inMainland);
      // The county of the answered point, as lbsQuery answers it (docs/contract.md §13): a city-level
      // match answers the city's seat, which lies in one county.
      const at = this.geocoder.local ? await this.geocoder.reverse(place.longitude, place.latitude) : null;
      const fields = {
        longitude: formatDegrees(x),
        latitude: formatDegrees(y),
        standardCode: at?.standardCode ?? place.standardCode ?? '',
      };
      return { fields, key: place.fromCityAlone ? cityKey : key };
    });
  }

  /** mcc, mnc, lac, cellid → the cell's coordinates (in COORD_SYSTEM) and address. */
  baseStationQuery(mccText: string, mncText: string, lacText: string, cellidText: string, appToken?: string): Promise<LbsReply> {
    const parts = [mccText, mncText, lacText, cellidText].map(canonicalDigits);
    const [mcc, mnc, lac, cellid] = parts.map(Number) as [number, number, number, number];
    const source = `${this.cells.name}+${this.geocoder.name}`;
    // The parameters passed DIGITS_TEXT: no ' ' in them.
    const key = this.recentKeys.get(`baseStationQuery ${parts.join(' ')} ${this.scopeOf(appToken)}`, () =>
      this.key('baseStationQuery', source, parts, appToken),
    );
    return this.answer('baseStationQuery', key, async () => {
      if (![mcc, mnc, lac, cellid].every(Number.isSafeInteger)) return null;
      const cell = await this.cells.locate({ mcc, mnc, lac, cellid });
      if (!cell) return null;
      // OpenCelliD positions are WGS-84.
      const [gx, gy] = convertDatum(cell.longitude, cell.latitude, 'wgs84', this.geocoder.datum, this.inMainland);
      const place = await this.geocoder.reverse(gx, gy);
      const [x, y] = convertDatum(cell.longitude, cell.latitude, 'wgs84', this.datum, this.inMainland);
      return { fields: { longitude: formatDegrees(x), latitude: formatDegrees(y), ...addressFields(place) } };
    });
  }

  /** The app a cache key names: with `CACHE_SCOPE=app` the calling app, so no app is answered from another's lookup. */
  private appOf(appToken: string | undefined): string | undefined {
    return this.config.CACHE_SCOPE === 'app' ? (appToken ?? '') : undefined;
  }

  /** `appOf` as text for a `RecentKeys` entry (`''` when the cache is shared). */
  private scopeOf(appToken: string | undefined): string {
    const app = this.appOf(appToken);
    return app === undefined ? '' : `app=${app}`;
  }

  /** The cache key of the operation's normalised `parts` (`lookupKey`). */
  private key(operation: string, source: string, parts: string[], appToken: string | undefined): string {
    const ctx: KeyContext = { prefix: this.config.CACHE_KEY_PREFIX, source, datum: this.datum, app: this.appOf(appToken) };
    return lookupKey(ctx, operation, parts);
  }

  /**
   * The answer of a lookup. The fields are serialised once, for the cache, and that text is
   * the answer's tail: the envelope's three fields are written in front of it, so the writer
   * does not serialise the answer again (see docs/performance.md, offline miss path).
   */
  private async answer(operation: LbsOperationName, key: string, compute: () => Promise<Computed | null>): Promise<LbsReply> {
    const { fields, text, fromCache } = await this.flights.run(key, () => this.lookup(operation, key, compute));
    return lbsReply(fromCache, fields, text);
  }

  private async lookup(operation: LbsOperationName, key: string, compute: () => Promise<Computed | null>): Promise<Lookup> {
    const cachedText = await this.cache.get(key);
    if (cachedText !== undefined) {
      const cached = checkCachedFields(operation, cachedText);
      if (cached) return { fields: cached, text: JSON.stringify(cached), fromCache: true };
      // Not a value this service wrote: a miss, recomputed and overwritten below.
      this.cacheMetrics.rejected(operation);
      this.logger.warn(`cached ${operation} value refused (not a flat object of the answer's fields); recomputing`);
    }
    let computed: Computed | null;
    try {
      computed = await compute();
    } catch (err) {
      if (!(err instanceof UpstreamUnavailableError)) throw err;
      this.logger.debug(`upstream failure: ${err.message}`);
      throw new ApiException(LbsCodes.UPSTREAM_UNAVAILABLE, err instanceof UpstreamTimeoutError ? 'upstream timed out' : undefined);
    }
    // "Nothing found" is a failure: answered 404 and, like every failure, not cached.
    if (!computed) throw new ApiException(LbsCodes.NOT_FOUND);
    const { fields } = computed;
    const text = JSON.stringify(fields);
    await this.cache.set(computed.key ?? key, text, this.config.CACHE_TTL_SECONDS);
    return { fields, text, fromCache: false };
  }
}

/** The three envelope fields of a successful answer, and their JSON made once. */
class SuccessEnvelope {
  private readonly head: string;

  constructor(
    private readonly code: string,
    private readonly resultDesc: string,
    private readonly lbsStat: LbsStatValue,
  ) {
    const text = JSON.stringify({ code, resultDesc, lbsStat });
    this.head = text.slice(0, -1);
  }

  /** The answer of `fields`, whose JSON object text is `fieldsText`. */
  reply(fields: LbsFields, fieldsText: string): LbsReply {
    const value: LbsAnswer = { code: this.code, resultDesc: this.resultDesc, lbsStat: this.lbsStat, ...fields };
    const text = fieldsText === '{}' ? `${this.head}}` : `${this.head},${fieldsText.slice(1)}`;
    return new JsonText(value, text) as LbsReply;
  }
}

const UPSTREAM_ENVELOPE = new SuccessEnvelope(LbsCodes.OK_UPSTREAM.code, LbsCodes.OK_UPSTREAM.message, LbsStat.UPSTREAM);
const CACHE_ENVELOPE = new SuccessEnvelope(LbsCodes.OK_CACHE.code, LbsCodes.OK_CACHE.message, LbsStat.CACHE);

/**
 * The successful answer of `fields` (from the cache or computed), whose JSON object text is
 * `fieldsText`: the same bytes as `JSON.stringify` of the answer object, made without
 * serialising the fields again.
 */
export function lbsReply(fromCache: boolean, fields: LbsFields, fieldsText: string): LbsReply {
  return (fromCache ? CACHE_ENVELOPE : UPSTREAM_ENVELOPE).reply(fields, fieldsText);
}
