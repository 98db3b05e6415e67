#!/usr/bin/env node
// `node bench/profile-top.mjs <file.cpuprofile> [limit]`: the functions (and packages) with
// the most self time of a CPU profile written by `pnpm bench` with BENCH_PROFILE=1 (or by
// `node --cpu-prof`).
import { topFrames } from './lib/profile.mjs';

const [file, limit = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-top.mjs <file.cpuprofile> [limit]');
  process.exit(2);
}
console.log('self%   function  (file:line)');
for (const f of topFrames(file, Number(limit))) console.log(`${f.selfPct.toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
console.log('\nself%   package');
for (const f of topFrames(file, 15, { byPackage: true })) console.log(`${f.selfPct.toFixed(1).padStart(5)}%  ${f.name}`);
console.log('\nself%   layer');
for (const f of topFrames(file, 15, { byArea: true })) console.log(`${f.selfPct.toFixed(1).padStart(5)}%  ${f.name}`);
