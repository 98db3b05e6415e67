/**
 * WGS-84 ↔ GCJ-02 conversion (the public formulas of the Chinese "Mars" datum shift).
 *
 * The shift applies to points in mainland China only, as every provider applies it. Which
 * points those are is the caller's `inMainland` test (`MainlandChina.contains` in the service),
 * evaluated on the coordinates as given, in whichever datum they are: the shift is under 1 km,
 * finer than the border that decides, so the answer is the same on either datum.
 */
const A = 6378245.0;
const EE = 0.006693421622965943;

/** Whether the datum shift applies at a point (decimal degrees). */
export type MainlandTest = (longitude: number, latitude: number) => boolean;

function transformLat(x: number, y: number): number {
  let ret = -100.0 + 2.0 * x + 3.0 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  ret += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  ret += ((20.0 * Math.sin(y * Math.PI) + 40.0 * Math.sin((y / 3.0) * Math.PI)) * 2.0) / 3.0;
  ret += ((160.0 * Math.sin((y / 12.0) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30.0)) * 2.0) / 3.0;
  return ret;
}

function transformLon(x: number, y: number): number {
  let ret = 300.0 + x + 2.0 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  ret += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  ret += ((20.0 * Math.sin(x * Math.PI) + 40.0 * Math.sin((x / 3.0) * Math.PI)) * 2.0) / 3.0;
  ret += ((150.0 * Math.sin((x / 12.0) * Math.PI) + 300.0 * Math.sin((x / 30.0) * Math.PI)) * 2.0) / 3.0;
  return ret;
}

/** The shift itself, with no test of where the point is. */
function shift(longitude: number, latitude: number): [number, number] {
  const dLat0 = transformLat(longitude - 105.0, latitude - 35.0);
  const dLon0 = transformLon(longitude - 105.0, latitude - 35.0);
  const radLat = (latitude / 180.0) * Math.PI;
  let magic = Math.sin(radLat);
  magic = 1 - EE * magic * magic;
  const sqrtMagic = Math.sqrt(magic);
  const dLat = (dLat0 * 180.0) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI);
  const dLon = (dLon0 * 180.0) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI);
  return [longitude + dLon, latitude + dLat];
}

/** WGS-84 → GCJ-02; unchanged where `inMainland` says no. */
export function wgs84ToGcj02(longitude: number, latitude: number, inMainland: MainlandTest): [number, number] {
  if (!inMainland(longitude, latitude)) return [longitude, latitude];
  return shift(longitude, latitude);
}

/**
 * GCJ-02 → WGS-84 by fixed-point iteration (error well under a centimetre after a few rounds);
 * unchanged where `inMainland` says no. The test is made once, on the point given.
 */
export function gcj02ToWgs84(longitude: number, latitude: number, inMainland: MainlandTest): [number, number] {
  if (!inMainland(longitude, latitude)) return [longitude, latitude];
  let lon = longitude;
  let lat = latitude;
  for (let i = 0; i < 6; i++) {
    const [gLon, gLat] = shift(lon, lat);
    lon -= gLon - longitude;
    lat -= gLat - latitude;
  }
  return [lon, lat];
}

/** Converts between datums; identity when they are the same or outside mainland China. */
export function convertDatum(
  longitude: number,
  latitude: number,
  from: 'wgs84' | 'gcj02',
  to: 'wgs84' | 'gcj02',
  inMainland: MainlandTest,
): [number, number] {
  if (from === to) return [longitude, latitude];
  return from === 'wgs84' ? wgs84ToGcj02(longitude, latitude, inMainland) : gcj02ToWgs84(longitude, latitude, inMainland);
}
