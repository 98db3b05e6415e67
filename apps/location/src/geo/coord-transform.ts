/**
 * WGS-84 ↔ GCJ-02 conversion (the public formulas of the Chinese "Mars" datum shift).
 * Points outside mainland China are left unchanged, as every provider does.
 */
const A = 6378245.0;
const EE = 0.006693421622965943;

/** Rough bounding box of mainland China; outside it no shift applies. */
export function isInMainlandChina(longitude: number, latitude: number): boolean {
  return longitude >= 72.004 && longitude <= 137.8347 && latitude >= 0.8293 && latitude <= 55.8271;
}

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

function delta(longitude: number, latitude: number): [number, number] {
  const dLat0 = transformLat(longitude - 105.0, latitude - 35.0);
  const dLon0 = transformLon(longitude - 105.0, latitude - 35.0);
  const radLat = (latitude / 180.0) * Math.PI;
  let magic = Math.sin(radLat);
  magic = 1 - EE * magic * magic;
  const sqrtMagic = Math.sqrt(magic);
  const dLat = (dLat0 * 180.0) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI);
  const dLon = (dLon0 * 180.0) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI);
  return [dLon, dLat];
}

export function wgs84ToGcj02(longitude: number, latitude: number): [number, number] {
  if (!isInMainlandChina(longitude, latitude)) return [longitude, latitude];
  const [dLon, dLat] = delta(longitude, latitude);
  return [longitude + dLon, latitude + dLat];
}

/** Inverse by fixed-point iteration (error well under a centimetre after a few rounds). */
export function gcj02ToWgs84(longitude: number, latitude: number): [number, number] {
  if (!isInMainlandChina(longitude, latitude)) return [longitude, latitude];
  let lon = longitude;
  let lat = latitude;
  for (let i = 0; i < 6; i++) {
    const [gLon, gLat] = wgs84ToGcj02(lon, lat);
    lon -= gLon - longitude;
    lat -= gLat - latitude;
  }
  return [lon, lat];
}

/** Converts between datums; identity when they are the same. */
export function convertDatum(longitude: number, latitude: number, from: 'wgs84' | 'gcj02', to: 'wgs84' | 'gcj02'): [number, number] {
  if (from === to) return [longitude, latitude];
  return from === 'wgs84' ? wgs84ToGcj02(longitude, latitude) : gcj02ToWgs84(longitude, latitude);
}
