/**
 * Points outside the county polygons: the country (borders with territorial waters from
 * `@rapideditor/country-coder`, built into a compact polygon asset, WGS-84) and the nearest
 * GeoNames populated place.
 */
import { around } from 'geokdbush';
import { CountyIndex } from '../../geodata/county-index';
import { Geodata } from '../../geodata/geodata-format';
import { WorldCities, cityName } from '../../geodata/world-cities-format';

export interface CountryHit {
  /** ISO 3166-1 alpha-2 (territories such as HK, MO, TW included). */
  iso: string;
  /** Human-readable Chinese name (日本, 美国). */
  name: string;
}

export interface CityHit {
  name: string;
  iso: string;
}

const zhRegions = new Intl.DisplayNames(['zh-Hans'], { type: 'region', fallback: 'none' });

export function countryName(iso: string, fallback?: string): string {
  try {
    return zhRegions.of(iso) ?? fallback ?? iso;
  } catch {
    return fallback ?? iso;
  }
}

/** Country and territory borders: each polygon's division row is `[iso, English name, 0, 0]`. */
export class CountryBorders {
  private readonly index: CountyIndex;
  private readonly hits: (CountryHit | undefined)[];

  /** `index`: the polygon index of `data` when one is built already. */
  constructor(
    private readonly data: Geodata,
    index?: CountyIndex,
  ) {
    this.index = index ?? new CountyIndex(data);
    this.hits = new Array<CountryHit | undefined>(data.header.counties.length);
  }

  /** The country or territory holding a point (WGS-84 degrees), or null at sea. */
  at(longitude: number, latitude: number): CountryHit | null {
    const i = this.index.lookup(longitude, latitude);
    if (i < 0) return null;
    let hit = this.hits[i];
    if (!hit) {
      const [iso, nameEn] = this.data.header.counties[i];
      hit = { iso, name: countryName(iso, nameEn) };
      this.hits[i] = hit;
    }
    return hit;
  }
}

export class NearestCities {
  constructor(private readonly cities: WorldCities) {}

  get size(): number {
    return this.cities.header.count;
  }

  /** The nearest place within `maxKm` (great-circle), optionally in the given country only. */
  nearest(longitude: number, latitude: number, maxKm: number, iso?: string): CityHit | undefined {
    const countryIndex = iso === undefined ? -1 : this.cities.header.countries.indexOf(iso);
    if (iso !== undefined && countryIndex < 0) return undefined;
    const filter = countryIndex < 0 ? undefined : (i: number) => this.cities.country[i] === countryIndex;
    const [i] = around(this.cities.index, longitude, latitude, 1, maxKm, filter);
    if (i === undefined) return undefined;
    return { name: cityName(this.cities, i), iso: this.cities.header.countries[this.cities.country[i]] };
  }
}
