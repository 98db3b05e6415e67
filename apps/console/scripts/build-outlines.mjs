#!/usr/bin/env node
// The console's map, drawn from geometry the project already ships: the county polygons of the
// location service's offline geodata (decoded by its own compiled reader), outer rings simplified
// and projected into one JSON file that the Location page draws as SVG. No tile, no network.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import simplify from 'simplify-js';

const here = dirname(fileURLToPath(import.meta.url));
const location = join(here, '../../location');
const require = createRequire(import.meta.url);
const { decodeGeodata } = require(join(location, 'dist/geodata/geodata-format.js'));

const TOLERANCE_DEG = 0.04; // about 4 km: county shapes stay recognisable at the map's size
const WIDTH = 1000;

const geo = decodeGeodata(readFileSync(join(location, 'src/data/china-geodata.bin.gz')));
const { header } = geo;
const scale = header.scale;

// Equirectangular, x shrunk by cos(36°) so that mid-latitude China keeps its shape.
const west = 73;
const east = 136;
const north = 54;
const south = 17;
const kx = Math.cos((36 * Math.PI) / 180);
const unit = WIDTH / ((east - west) * kx);
const height = Math.round((north - south) * unit);
const project = (lon, lat) => [Math.round((lon - west) * kx * unit * 10) / 10, Math.round((north - lat) * unit * 10) / 10];

const counties = new Map();
for (let p = 0; p < header.polygonCount; p++) {
  const r = geo.polyRing[p]; // the outer ring only
  let x = geo.originX[p] + geo.ringX[r];
  let y = geo.originY[p] + geo.ringY[r];
  const points = [];
  for (let s = geo.ringStart[r]; s < geo.ringStart[r + 1]; s++) {
    x += geo.steps[s * 2];
    y += geo.steps[s * 2 + 1];
    points.push({ x: x / scale, y: y / scale });
  }
  const kept = simplify(points, TOLERANCE_DEG, true);
  if (kept.length < 4) continue;
  const path = kept.map((pt, i) => `${i === 0 ? 'M' : 'L'}${project(pt.x, pt.y).join(' ')}`).join('') + 'Z';
  const [code, name] = header.counties[geo.polyDivision[p]];
  const county = counties.get(code) ?? { code, name, province: `${code.slice(0, 2)}0000`, path: '' };
  county.path += path;
  counties.set(code, county);
}

const out = {
  note: 'County outlines of the offline geodata (GCJ-02), simplified; see docs/geodata.md for sources and licences.',
  projection: { west, north, kx, unit },
  width: WIDTH,
  height,
  provinces: header.provinces.map(([code, name]) => ({ code, name })),
  counties: [...counties.values()],
};
mkdirSync(join(here, '../public'), { recursive: true });
const file = join(here, '../public/outlines.json');
writeFileSync(file, JSON.stringify(out));
console.log(`outlines: ${out.counties.length} counties, ${(JSON.stringify(out).length / 1e6).toFixed(2)} MB -> ${file}`);
