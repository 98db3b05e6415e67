import { MinIntervalLimiter } from '../../upstream/min-interval-limiter';
import { UpstreamUnavailableError } from '../../upstream/upstream-errors';
import { UpstreamHttp } from '../../upstream/upstream-http';
import type { UpstreamPolicy } from '../../upstream/upstream-policy';
import { type Geocoder, type Place } from '../geocoder.port';

export interface NominatimOptions {
  baseUrl: string;
  /** Nominatim's usage policy requires a User-Agent that identifies the application. */
  userAgent: string;
  /** `accept-language` of the answers. */
  language: string;
  /** Minimum interval between two requests of this process (public server: 1000 ms). */
  minIntervalMs: number;
}

/** ISO 3166-2:CN subdivision → GB/T 2260 province code (Nominatim's `ISO3166-2-lvl4`). */
const CN_SUBDIVISIONS: Readonly<Record<string, string>> = {
  AH: '34',
  BJ: '11',
  CQ: '50',
  FJ: '35',
  GD: '44',
  GS: '62',
  GX: '45',
  GZ: '52',
  HA: '41',
  HB: '42',
  HE: '13',
  HI: '46',
  HK: '81',
  HL: '23',
  HN: '43',
  JL: '22',
  JS: '32',
  JX: '36',
  LN: '21',
  MO: '82',
  NM: '15',
  NX: '64',
  QH: '63',
  SC: '51',
  SD: '37',
  SH: '31',
  SN: '61',
  SX: '14',
  TJ: '12',
  TW: '71',
  XJ: '65',
  XZ: '54',
  YN: '53',
  ZJ: '33',
};

export function provinceCodeOfIso(iso: unknown): string | undefined {
  if (typeof iso !== 'string') return undefined;
  const m = /^CN-([A-Z]{2}|\d{2})$/.exec(iso.trim().toUpperCase());
  if (!m) return undefined;
  const prefix = /^\d{2}$/.test(m[1]!) ? m[1]! : CN_SUBDIVISIONS[m[1]!];
  return prefix === undefined ? undefined : `${prefix}0000`;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** One jsonv2 result (of `/reverse` or `/search`) → place; `longitude`/`latitude` override its own. */
export function parseNominatimPlace(result: unknown, at?: { longitude: number; latitude: number }): Place | null {
  if (!result || typeof result !== 'object' || 'error' in result) return null;
  const r = result as Record<string, unknown>;
  const lon = Number(r.lon);
  const lat = Number(r.lat);
  if (!Number.isFinite(lon) || !Number.isFinite(lat)) throw new UpstreamUnavailableError('nominatim: result without coordinates');
  const a = (r.address ?? {}) as Record<string, unknown>;
  return {
    longitude: at?.longitude ?? lon,
    latitude: at?.latitude ?? lat,
    country: str(a.country),
    provinceName: str(a.state) ?? str(a.province) ?? str(a.region),
    provinceCode: provinceCodeOfIso(a['ISO3166-2-lvl4']),
    areaName: str(a.city) ?? str(a.municipality) ?? str(a.county) ?? str(a.state_district),
    address: str(r.display_name),
  };
}

/** OpenStreetMap Nominatim (WGS-84), `/reverse` and `/search` with `format=jsonv2`. */
export class NominatimGeocoder implements Geocoder {
  readonly name = 'nominatim';
  readonly datum = 'wgs84' as const;
  private readonly http: UpstreamHttp;
  private readonly limiter: MinIntervalLimiter;

  constructor(
    private readonly options: NominatimOptions,
    private readonly policy: UpstreamPolicy,
  ) {
    this.http = new UpstreamHttp({ name: 'nominatim', userAgent: options.userAgent });
    this.limiter = new MinIntervalLimiter(options.minIntervalMs);
  }

  async reverse(longitude: number, latitude: number): Promise<Place | null> {
    const body = await this.get('/reverse', { lat: latitude.toFixed(6), lon: longitude.toFixed(6), zoom: '18' });
    return parseNominatimPlace(body, { longitude, latitude });
  }

  async forward(city: string, address: string): Promise<Place | null> {
    const q = address.includes(city) ? address : `${city} ${address}`;
    const body = await this.get('/search', { q, limit: '1' });
    if (!Array.isArray(body)) throw new UpstreamUnavailableError('nominatim: search answer is not a list');
    return body.length === 0 ? null : parseNominatimPlace(body[0]);
  }

  close(): Promise<void> {
    this.http.close();
    return Promise.resolve();
  }

  private get(path: string, query: Record<string, string>): Promise<unknown> {
    const url = new URL(this.options.baseUrl.replace(/(?<!\/)\/+$/, '') + path);
    for (const [k, v] of Object.entries({ ...query, format: 'jsonv2', addressdetails: '1' })) url.searchParams.set(k, v);
    return this.policy.run(async (signal) => {
      // Every attempt, retries included, waits for its slot of the per-process rate limit.
      await this.limiter.acquire(signal);
      return this.http.getJson(url, signal, { 'Accept-Language': this.options.language });
    });
  }
}
