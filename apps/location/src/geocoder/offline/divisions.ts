/**
 * The division tables of the asset, linked county → prefecture → province, and the rules that
 * turn a division into the answer's province / area / standard fields:
 *
 * - province = code[0..2] + '0000'; prefecture ("area") = code[0..4] + '00';
 * - municipalities (北京, 天津, 上海, 重庆): the area is the municipality itself, code xx0100
 *   (also for 重庆's counties, whose code[0..4] is 5002);
 * - county-level units under a province directly (xx90xx, e.g. 429004 仙桃市, 659001 石河子市):
 *   the area is the county itself (they answer to no prefecture), its code the county code;
 * - Hong Kong, Macao and Taiwan carry their region codes (810000, 820000, 710000) as province,
 *   the district (county for Taiwan) as area name, and no county code.
 */
import { DivisionRow, GeodataHeader } from '../../geodata/geodata-format';

export type DivisionLevel = 'province' | 'prefecture' | 'county';

export interface Division {
  level: DivisionLevel;
  code: string;
  name: string;
  /** Seat in degrees (GCJ-02). */
  lon: number;
  lat: number;
  province: Division;
  /** The real prefecture above a county, when it has one. */
  prefecture?: Division;
}

/** Fields of an answer that describe a division. */
export interface DivisionFields {
  country: string;
  provinceName?: string;
  provinceCode?: string;
  areaName?: string;
  areaCode?: string;
  standardCode?: string;
  address: string;
}

const MUNICIPALITIES = new Set(['11', '12', '31', '50']);
const REGIONS = new Set(['71', '81', '82']);

export const CHINA = '中国';

export function isMunicipality(code: string): boolean {
  return MUNICIPALITIES.has(code.slice(0, 2));
}

/** Hong Kong, Macao, Taiwan. */
export function isRegion(code: string): boolean {
  return REGIONS.has(code.slice(0, 2));
}

/** Province-administered county-level unit (xx90xx). */
export function isProvinceAdministered(code: string): boolean {
  return code.slice(2, 4) === '90';
}

export class DivisionTable {
  readonly provinces: Division[];
  readonly prefectures: Division[];
  /** In the asset's county order (the polygons' division index). */
  readonly counties: Division[];
  private readonly byCode = new Map<string, Division>();

  constructor(header: Pick<GeodataHeader, 'provinces' | 'prefectures' | 'counties'>) {
    const make = (row: DivisionRow, level: DivisionLevel, province?: Division, prefecture?: Division): Division => {
      const d: Division = { level, code: row[0], name: row[1], lon: row[2], lat: row[3], province: province!, prefecture };
      if (!province) d.province = d;
      return d;
    };
    this.provinces = header.provinces.map((r) => make(r, 'province'));
    const provinceOf = new Map(this.provinces.map((p) => [p.code.slice(0, 2), p]));
    const province = (code: string): Division => {
      const p = provinceOf.get(code.slice(0, 2));
      if (!p) throw new Error(`geodata: no province for ${code}`);
      return p;
    };
    this.prefectures = header.prefectures.map((r) => make(r, 'prefecture', province(r[0])));
    const prefectureOf = new Map(this.prefectures.map((p) => [p.code.slice(0, 4), p]));
    this.counties = header.counties.map((r) => make(r, 'county', province(r[0]), prefectureOf.get(r[0].slice(0, 4))));
    for (const d of [...this.provinces, ...this.prefectures]) this.byCode.set(d.code, d);
    for (const d of this.counties) if (!isRegion(d.code) && !this.byCode.has(d.code)) this.byCode.set(d.code, d);
  }

  get(code: string): Division | undefined {
    return this.byCode.get(code);
  }

  /** The answer's fields for a division (any level). */
  describe(d: Division): DivisionFields {
    const province = d.province;
    if (isRegion(d.code)) {
      const areaName = d.level === 'county' ? d.name : undefined;
      return {
        country: CHINA,
        provinceName: province.name,
        provinceCode: province.code,
        areaName,
        address: province.name + (areaName ?? ''),
      };
    }
    const fields: DivisionFields = { country: CHINA, provinceName: province.name, provinceCode: province.code, address: province.name };
    if (isMunicipality(d.code)) {
      // The municipality is its own area; its counties sit right below it.
      fields.areaName = province.name;
      fields.areaCode = `${d.code.slice(0, 2)}0100`;
      if (d.level === 'county') {
        fields.standardCode = d.code;
        fields.address += d.name;
      }
      return fields;
    }
    if (d.level === 'province') return fields;
    if (d.level === 'prefecture') {
      fields.areaName = d.name;
      fields.areaCode = d.code;
      fields.address += d.name;
      return fields;
    }
    fields.standardCode = d.code;
    if (d.prefecture && d.prefecture.code !== d.code) {
      fields.areaName = d.prefecture.name;
      fields.areaCode = d.prefecture.code;
      fields.address += d.prefecture.name + (d.name === d.prefecture.name ? '' : d.name);
    } else {
      // xx90xx units and prefecture-level cities without counties (东莞市 441900): their own area.
      fields.areaName = d.name;
      fields.areaCode = d.code;
      fields.address += d.name;
    }
    return fields;
  }
}
