/**
 * The offline geocoder: no network. Reverse geocoding by polygon containment over the county
 * polygons (GCJ-02), the country and nearest GeoNames place elsewhere; forward geocoding by
 * administrative names to the seat of the deepest division named.
 */
import { gcj02ToWgs84 } from '../../geo/coord-transform';
import type { MainlandChina } from '../../geo/mainland-china';
import type { CountyIndex } from '../../geodata/county-index';
import type { TownTable } from '../../geodata/geodata-format';
import { Datum, Geocoder, Place } from '../geocoder.port';
import { CHINA, Division, DivisionTable, isRegion } from './divisions';
import { NameMatcher } from './name-matcher';
import { TownMatcher } from './town-matcher';
import { CountryBorders, NearestCities } from './world-places';

export interface OfflineGeocoderParts {
  counties: CountyIndex;
  divisions: DivisionTable;
  countries: CountryBorders;
  /** Where the GCJ-02 shift applies (from the same country borders). */
  mainland: MainlandChina;
  /** Towns and sub-districts, to take a city down to its county. */
  towns?: TownTable;
  /** Absent when the world-cities asset is not loaded: abroad, the country only. */
  cities?: NearestCities;
  /** Furthest GeoNames place named for a point abroad, in km. */
  nearestCityMaxKm: number;
  /** A point in China outside every polygon takes the county this near (degrees). */
  coastToleranceDegrees: number;
}

/** ISO codes answered as China; HK / MO / TW keep their region names. */
const CHINA_ISO: Record<string, string | undefined> = { CN: undefined, HK: '810000', MO: '820000', TW: '710000' };

export class OfflineGeocoder implements Geocoder {
  readonly name = 'offline';
  readonly datum: Datum = 'gcj02';
  readonly local = true;
  private readonly matcher: NameMatcher;
  private readonly towns?: TownMatcher;

  constructor(private readonly parts: OfflineGeocoderParts) {
    const { divisions } = parts;
    this.matcher = new NameMatcher([...divisions.provinces, ...divisions.prefectures, ...divisions.counties]);
    if (parts.towns) this.towns = new TownMatcher(parts.towns, divisions.counties);
  }

  /** Where the GCJ-02 shift applies, from the country borders this geocoder loaded. */
  get mainland(): MainlandChina {
    return this.parts.mainland;
  }

  /** The division tables (provinces, prefectures, counties with their seats). */
  get divisions(): DivisionTable {
    return this.parts.divisions;
  }

  reverse(longitude: number, latitude: number): Promise<Place | null> {
    return Promise.resolve(this.reverseSync(longitude, latitude));
  }

  forward(city: string, address: string): Promise<Place | null> {
    return Promise.resolve(this.forwardSync(city, address));
  }

  reverseSync(longitude: number, latitude: number): Place | null {
    if (!Number.isFinite(longitude) || !Number.isFinite(latitude)) return null;
    const { counties, divisions } = this.parts;
    const hit = counties.lookup(longitude, latitude);
    if (hit >= 0) return this.place(longitude, latitude, divisions.counties[hit]);

    // Country borders are WGS-84; the shift applies to points in mainland China only.
    const [wLon, wLat] = gcj02ToWgs84(longitude, latitude, this.parts.mainland.contains);
    const country = this.parts.countries.at(wLon, wLat);
    const inChina = country !== null && country.iso in CHINA_ISO;
    if (country === null || inChina) {
      // Coasts and borders: the slivers between simplified polygons, the beach beyond them.
      const near = counties.nearest(longitude, latitude, this.parts.coastToleranceDegrees);
      if (near >= 0) return this.place(longitude, latitude, divisions.counties[near]);
    }
    if (country === null) return null;
    if (inChina) {
      const region = CHINA_ISO[country.iso];
      const division = region ? divisions.get(region) : undefined;
      if (division) return this.place(longitude, latitude, division);
      return { longitude, latitude, country: CHINA, address: CHINA };
    }
    const city = this.parts.cities?.nearest(wLon, wLat, this.parts.nearestCityMaxKm, country.iso);
    return { longitude, latitude, country: country.name, address: city ? `${country.name} ${city.name}` : country.name };
  }

  forwardSync(city: string, address: string): Place | null {
    const matched = this.matcher.matchWithCityAlone(city, address);
    let division = matched.division;
    if (!division) return null;
    if (division.level !== 'county' && !isRegion(division.code)) division = this.towns?.countyIn(address, division) ?? division;
    const place = this.place(division.lon, division.lat, division);
    // The deepest division matched: a county, or a prefecture / province named alone.
    if (!place.standardCode && !(isRegion(division.code) && division.level === 'county')) place.standardCode = division.code;
    // What the city text alone gives (no address, no town): the same answer for any address.
    if (division === matched.cityAlone) place.fromCityAlone = true;
    return place;
  }

  private place(longitude: number, latitude: number, division: Division): Place {
    return { longitude, latitude, ...this.parts.divisions.describe(division) };
  }
}
