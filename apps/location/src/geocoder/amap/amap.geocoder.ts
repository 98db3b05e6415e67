import { createHash } from 'node:crypto';
import { divisionCodes } from '../../geo/division-codes';
import { UpstreamUnavailableError } from '../../upstream/upstream-errors';
import { UpstreamHttp } from '../../upstream/upstream-http';
import { TransientUpstreamError, type UpstreamPolicy } from '../../upstream/upstream-policy';
import { type Geocoder, type Place } from '../geocoder.port';

export interface AmapOptions {
  key: string;
  /** Private key of the "digital signature" option; requests carry `sig` when set. */
  secret?: string;
  baseUrl: string;
  userAgent: string;
}

/** AMap answers `[]` for an empty field: only a non-empty string counts. */
export function amapText(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const t = value.trim();
    return t === '' ? undefined : t;
  }
  return undefined;
}

/**
 * AMap's digital signature: the request parameters sorted by name, joined as
 * `name=value&...` (raw values), the private key appended, MD5 in lowercase hex.
 */
export function amapSignature(params: Readonly<Record<string, string>>, secret: string): string {
  const names = Object.keys(params).sort();
  const text = names.map((n) => `${n}=${params[n]}`).join('&') + secret;
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/** infocodes after which the same request may succeed a moment later. */
const TRANSIENT_INFOCODES = new Set(['10015', '10016', '10017']);
/** infocodes that mean "no result for this input" rather than a failure of the service. */
const NO_RESULT_INFOCODES = new Set(['20011', '20012', '20800']);

interface AmapEnvelope {
  status?: unknown;
  info?: unknown;
  infocode?: unknown;
}

/**
 * Reads AMap's status: `"1"` is an answer; `"0"` with a "no result" infocode is nothing
 * found (`null`); server-side trouble (gateway timeout, busy, 300xx engine errors) is a
 * transient failure worth a retry; key, quota, permission and parameter errors are the
 * upstream being unavailable to us.
 */
export function checkAmapStatus(body: unknown): 'ok' | 'no-result' {
  const env = (body ?? {}) as AmapEnvelope;
  if (env.status === '1') return 'ok';
  const infocode = typeof env.infocode === 'string' ? env.infocode : '';
  const info = typeof env.info === 'string' ? env.info : 'unknown error';
  if (env.status !== '0') throw new UpstreamUnavailableError(`amap: unexpected answer (no status)`);
  if (NO_RESULT_INFOCODES.has(infocode)) return 'no-result';
  if (TRANSIENT_INFOCODES.has(infocode) || infocode.startsWith('300')) throw new TransientUpstreamError(`amap: ${info} (${infocode})`);
  throw new UpstreamUnavailableError(`amap: ${info} (${infocode})`);
}

function placeFields(adcode: string | undefined, names: { province?: string; city?: string; district?: string }) {
  const codes = divisionCodes(adcode);
  const province = names.province;
  let area = names.city;
  if (area === undefined && codes?.municipality) area = province;
  if (area === undefined && codes?.provinceAdministered) area = names.district;
  return {
    provinceName: province,
    provinceCode: codes?.provinceCode,
    areaName: area,
    areaCode: codes?.areaCode,
    standardCode: codes?.standardCode,
  };
}

/** `/v3/geocode/regeo` answer → place at the asked point; `null` when AMap knows nothing there. */
export function parseRegeo(body: unknown, longitude: number, latitude: number): Place | null {
  const regeocode = (body as { regeocode?: { formatted_address?: unknown; addressComponent?: Record<string, unknown> } }).regeocode;
  if (!regeocode || typeof regeocode !== 'object') return null;
  const c = regeocode.addressComponent ?? {};
  const adcode = amapText(c.adcode);
  const address = amapText(regeocode.formatted_address);
  const country = amapText(c.country);
  if (adcode === undefined && address === undefined && country === undefined) return null;
  return {
    longitude,
    latitude,
    country,
    ...placeFields(adcode, { province: amapText(c.province), city: amapText(c.city), district: amapText(c.district) }),
    address,
  };
}

/** `/v3/geocode/geo` answer → the first geocode; `null` when there is none. */
export function parseGeo(body: unknown, city = ''): Place | null {
  const geocodes = (body as { geocodes?: unknown }).geocodes;
  if (!Array.isArray(geocodes) || geocodes.length === 0) return null;
  const g = (geocodes[0] ?? {}) as Record<string, unknown>;
  const location = amapText(g.location);
  const m = location === undefined ? null : /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(location);
  if (!m) throw new UpstreamUnavailableError('amap: geocode without a location');
  const adcode = amapText(g.adcode);
  return {
    longitude: Number(m[1]),
    latitude: Number(m[2]),
    country: amapText(g.country),
    ...placeFields(adcode, { province: amapText(g.province), city: amapText(g.city), district: amapText(g.district) }),
    address: amapText(g.formatted_address),
    ...(answersCityAlone(g, city) ? { fromCityAlone: true } : {}),
  };
}

/**
 * AMap answered at the level of a province or a city (`level` 省 / 市) that the city text
 * itself names: the address added nothing. (A city text naming a province and an address
 * naming one of its cities is answered at level 市 too, but depends on the address.)
 */
function answersCityAlone(g: Record<string, unknown>, city: string): boolean {
  const level = amapText(g.level);
  const name = level === '市' ? (amapText(g.city) ?? amapText(g.province)) : level === '省' ? amapText(g.province) : undefined;
  return name !== undefined && city !== '' && (city.includes(name) || name.startsWith(city));
}

/** AMap web-service API v3 (GCJ-02). */
export class AmapGeocoder implements Geocoder {
  readonly name = 'amap';
  readonly datum = 'gcj02' as const;
  private readonly http: UpstreamHttp;

  constructor(
    private readonly options: AmapOptions,
    private readonly policy: UpstreamPolicy,
  ) {
    this.http = new UpstreamHttp({ name: 'amap', userAgent: options.userAgent });
  }

  reverse(longitude: number, latitude: number): Promise<Place | null> {
    const location = `${longitude.toFixed(6)},${latitude.toFixed(6)}`;
    return this.call('/v3/geocode/regeo', { location, extensions: 'base' }, (body) => parseRegeo(body, longitude, latitude));
  }

  forward(city: string, address: string): Promise<Place | null> {
    return this.call('/v3/geocode/geo', { address, city }, (body) => parseGeo(body, city));
  }

  close(): Promise<void> {
    this.http.close();
    return Promise.resolve();
  }

  private call(path: string, query: Record<string, string>, parse: (body: unknown) => Place | null): Promise<Place | null> {
    const params: Record<string, string> = { ...query, key: this.options.key, output: 'JSON' };
    if (this.options.secret) params.sig = amapSignature(params, this.options.secret);
    const url = new URL(this.options.baseUrl.replace(/(?<!\/)\/+$/, '') + path);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return this.policy.run(async (signal) => {
      const body = await this.http.getJson(url, signal);
      return checkAmapStatus(body) === 'no-result' ? null : parse(body);
    });
  }
}
