/**
 * The geocoder port: the lookup logic sees only this, never HTTP or data files.
 * Adapters: `offline` (built-in data), `amap`, `nominatim` (chosen by `GEOCODER`).
 */

/** Datum of the coordinates an adapter takes and returns. */
export type Datum = 'wgs84' | 'gcj02';

/** What a lookup found. Codes are six-digit GB/T 2260 codes (mainland China only). */
export interface Place {
  /** Decimal degrees in the adapter's datum. */
  longitude: number;
  latitude: number;
  country?: string;
  provinceName?: string;
  provinceCode?: string;
  /** Prefecture-level city. */
  areaName?: string;
  areaCode?: string;
  /** County-level code. */
  standardCode?: string;
  address?: string;
  /**
   * Forward geocoding only: the address added nothing the geocoder recognised, the answer is
   * that of the city text alone (the same for any address with this city).
   */
  fromCityAlone?: boolean;
}

export interface Geocoder {
  readonly name: string;
  /** The datum of the coordinates this adapter takes and returns. */
  readonly datum: Datum;
  /**
   * Answers from memory (microseconds, no upstream call): addressQuery then takes the county of
   * the answered point from `reverse`, so that it is what lbsQuery answers there (docs/contract.md §13).
   */
  readonly local?: boolean;
  /** Coordinates → address; `null` when nothing is there (open ocean...). */
  reverse(longitude: number, latitude: number): Promise<Place | null>;
  /** City + address text → coordinates (and the division found); `null` when nothing matches. */
  forward(city: string, address: string): Promise<Place | null>;
  /** Releases connections and timers (called on shutdown). */
  close?(): Promise<void>;
}

/** DI token of the configured `Geocoder`. */
export const GEOCODER = Symbol('GEOCODER');
