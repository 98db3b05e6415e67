/**
 * GB/T 2260 code arithmetic: a six-digit code is province (2 digits), prefecture (2) and
 * county (2). Municipalities (11 Beijing, 12 Tianjin, 31 Shanghai, 50 Chongqing) have no
 * prefecture of their own: their "area" is the municipality itself, code `xx0100` (also for
 * Chongqing's former counties, 5002xx). County-level units administered directly by a
 * province (`xx90xx`, e.g. 429004 Xiantao) are their own area.
 */
export const MUNICIPALITY_PROVINCES = new Set(['11', '12', '31', '50']);

export interface DivisionCodes {
  provinceCode: string;
  areaCode: string;
  standardCode: string;
  /** True when the area is the municipality itself (name it after the province). */
  municipality: boolean;
  /** True for a county-level unit directly under its province (name the area after it). */
  provinceAdministered: boolean;
}

/** Derives the province and prefecture codes of a county-level code; undefined unless six digits. */
export function divisionCodes(code: string | undefined): DivisionCodes | undefined {
  if (code === undefined || !/^\d{6}$/.test(code) || code.startsWith('00')) return undefined;
  const province = code.slice(0, 2);
  const provinceAdministered = code.slice(2, 4) === '90';
  const municipality = MUNICIPALITY_PROVINCES.has(province);
  return {
    provinceCode: `${province}0000`,
    areaCode: municipality ? `${province}0100` : provinceAdministered ? code : `${code.slice(0, 4)}00`,
    standardCode: code,
    municipality,
    provinceAdministered,
  };
}
