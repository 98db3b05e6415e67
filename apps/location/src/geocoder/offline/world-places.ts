/**
 * Points outside the county polygons: the country from `@rapideditor/country-coder` (borders
 * with territorial waters, WGS-84) and the nearest GeoNames populated place.
 */
import { feature } from '@rapideditor/country-coder';
import { around } from 'geokdbush';
import { WorldCities } from './world-cities-format';

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

/** The country or territory holding a point (WGS-84 degrees), or null at sea. */
export function countryAt(longitude: number, latitude: number): CountryHit | null {
  const territory = feature([longitude, latitude], { level: 'territory' });
  const country = feature([longitude, latitude]);
  const props = territory?.properties.iso1A2 ? territory.properties : country?.properties;
  if (!props?.iso1A2) return null;
  return { iso: props.iso1A2, name: countryName(props.iso1A2, props.nameEn) };
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
    return { name: this.cities.names[i], iso: this.cities.header.countries[this.cities.country[i]] };
  }
}
