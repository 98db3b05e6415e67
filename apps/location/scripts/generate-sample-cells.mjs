#!/usr/bin/env node
// Writes src/data/cells-sample.csv: a SMALL, GENERATED cell file in the OpenCelliD export
// format, so that base-station lookups work out of the box. The cells are NOT real: their
// identifiers are synthetic and their positions are scattered (deterministically) within a
// few kilometres of the centres of major Chinese cities (WGS-84). For real lookups load an
// OpenCelliD export with CELL_TOWERS_FILE (see docs/location-api.md).
//
//   node apps/location/scripts/generate-sample-cells.mjs
//
// Identifiers: city i (0-based, order below), operator o (0 China Mobile, 1 China Unicom,
// 11 China Telecom; index j = 0, 1, 2), cell k:
//   GSM  lac = 4000 + 8i + j,  cellid = 10000 + 100i + k      (k = 0..1)
//   LTE  lac = 20000 + 8i + j, cellid = (400000 + 1000i + k) * 256 + (k % 3 + 1)   (k = 0..1)
// Cell k = 0 of each city's GSM China Mobile group sits on the city centre, e.g. Beijing
// 460/0/4000/10000, Shanghai 460/0/4008/10100, Shenzhen 460/0/4024/10300.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CITIES = [
  ['Beijing', 116.391275, 39.907501],
  ['Shanghai', 121.473701, 31.230416],
  ['Guangzhou', 113.264385, 23.129112],
  ['Shenzhen', 114.057868, 22.543099],
  ['Chengdu', 104.066541, 30.572269],
  ['Hangzhou', 120.155070, 30.274085],
  ['Wuhan', 114.305392, 30.593098],
  ["Xi'an", 108.939840, 34.341574],
  ['Nanjing', 118.796877, 32.060255],
  ['Chongqing', 106.551556, 29.563009],
  ['Tianjin', 117.200983, 39.084158],
  ['Shenyang', 123.431474, 41.805698],
  ['Harbin', 126.535797, 45.802981],
  ['Zhengzhou', 113.625368, 34.746599],
  ['Changsha', 112.938814, 28.228209],
  ['Kunming', 102.832891, 24.880095],
  ['Lhasa', 91.140856, 29.645554],
  ['Urumqi', 87.616848, 43.825592],
  ['Xiamen', 118.089425, 24.479834],
  ['Qingdao', 120.382640, 36.067082],
  ['Hohhot', 111.749180, 40.842585],
  ['Haikou', 110.331190, 20.031971],
  ['Lanzhou', 103.834304, 36.061089],
  ['Fuzhou', 119.296494, 26.074508],
  ['Jinan', 117.120095, 36.651216],
  ['Hefei', 117.227239, 31.820586],
  ['Nanning', 108.366543, 22.817002],
  ['Guiyang', 106.630153, 26.647661],
  ['Taiyuan', 112.548879, 37.870590],
  ['Shijiazhuang', 114.514860, 38.042307],
  ['Nanchang', 115.858197, 28.682892],
  ['Changchun', 125.323544, 43.817071],
  ['Yinchuan', 106.230909, 38.487193],
  ['Xining', 101.778228, 36.617144],
];
const OPERATORS = [0, 1, 11];

// mulberry32: a small deterministic PRNG, so the file is reproducible.
let seed = 0x5eed2260;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const header = 'radio,mcc,net,area,cell,unit,lon,lat,range,samples,changeable,created,updated,averageSignal';
const rows = [header];
CITIES.forEach(([, lon0, lat0], i) => {
  OPERATORS.forEach((net, j) => {
    for (const radio of ['GSM', 'LTE']) {
      for (let k = 0; k < 2; k++) {
        const centre = radio === 'GSM' && j === 0 && k === 0;
        // Up to about 6 km from the centre.
        const r = centre ? 0 : 0.01 + random() * 0.05;
        const a = random() * 2 * Math.PI;
        const lon = lon0 + (r * Math.cos(a)) / Math.cos((lat0 * Math.PI) / 180);
        const lat = lat0 + r * Math.sin(a);
        const area = radio === 'GSM' ? 4000 + 8 * i + j : 20000 + 8 * i + j;
        const cell = radio === 'GSM' ? 10000 + 100 * i + k : (400000 + 1000 * i + k) * 256 + ((k % 3) + 1);
        const range = radio === 'GSM' ? 1000 + Math.floor(random() * 2000) : 300 + Math.floor(random() * 1200);
        const samples = 1 + Math.floor(random() * 200);
        const created = 1704067200 + Math.floor(random() * 180 * 86400);
        const updated = created + Math.floor(random() * 180 * 86400);
        rows.push([radio, 460, net, area, cell, 0, lon.toFixed(6), lat.toFixed(6), range, samples, 1, created, updated, 0].join(','));
      }
    }
  });
});

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'data', 'cells-sample.csv');
writeFileSync(out, rows.join('\n') + '\n');
console.log(`wrote ${rows.length - 1} cells to ${out}`);
