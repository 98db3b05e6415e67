#!/usr/bin/env node
// `node bench/cachesim-functions.mjs <service dump> <baseline dump> [top]`: where the simulated
// CPU's counts of two windows differ, per request, by kind of code and by function. The dumps are
// the main thread's of one measured window each, kept by `BENCH_CACHESIM=1 BENCH_CACHESIM_KEEP=1
// pnpm bench` in bench/results/cachesim with their request counts beside them (`<dump>.json`).
// JIT code is named by address (its functions differ between processes): read its total, not its
// rows. docs/performance.md ("The thirteenth round") shows what it found.
import { existsSync, readFileSync } from 'node:fs';
import { callgrindFunctions, codeKind } from './lib/counters.mjs';

const [servicePath, baselinePath, topArg] = process.argv.slice(2);
if (!servicePath || !baselinePath) {
  console.error('usage: node bench/cachesim-functions.mjs <service dump> <baseline dump> [top functions, default 25]');
  process.exit(2);
}
const top = Number(topArg ?? 25);

function read(path) {
  const sidecar = `${path}.json`;
  if (!existsSync(sidecar)) throw new Error(`${sidecar}: no request count beside the dump (kept by BENCH_CACHESIM_KEEP=1)`);
  const { requests } = JSON.parse(readFileSync(sidecar, 'utf8'));
  if (!(requests > 0)) throw new Error(`${sidecar}: no requests in the window`);
  const dump = callgrindFunctions(readFileSync(path, 'utf8'));
  // Where the shown events sit in this dump's counts (-1: not counted).
  return { requests, ...dump, shown: SHOWN.map((e) => dump.events.indexOf(e)) };
}

const SHOWN = ['Ir', 'I1mr', 'D1mr'];
const LABEL = { Ir: 'instructions', I1mr: 'L1i misses', D1mr: 'L1d read misses' };
const service = read(servicePath);
const baseline = read(baselinePath);
const perRequest = (dump, counts) => dump.shown.map((i) => (i < 0 || !counts ? 0 : counts[i] / dump.requests));

function byKind(dump) {
  const kinds = new Map();
  for (const [key, counts] of dump.functions) {
    const [object, fn] = key.split('\t');
    const kind = codeKind(object, fn);
    const sum = kinds.get(kind) ?? new Array(dump.events.length).fill(0);
    counts.forEach((n, i) => (sum[i] += n));
    kinds.set(kind, sum);
  }
  return kinds;
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const cell = (a, b) => `${fmt(a)} / ${fmt(b)} (${a - b >= 0 ? '+' : ''}${fmt(a - b)})`.padEnd(30);
console.log(`per request, service / baseline (difference); ${fmt(service.requests)} and ${fmt(baseline.requests)} requests`);
console.log(`${'kind of code'.padEnd(42)}| ${SHOWN.map((e) => LABEL[e].padEnd(30)).join('| ')}`);
const sk = byKind(service);
const bk = byKind(baseline);
const kinds = [...new Set([...sk.keys(), ...bk.keys()])].map((kind) => ({
  kind,
  s: perRequest(service, sk.get(kind)),
  b: perRequest(baseline, bk.get(kind)),
}));
kinds.sort((x, y) => y.s[0] - y.b[0] - (x.s[0] - x.b[0]));
for (const { kind, s, b } of kinds) console.log(`${kind.padEnd(42)}| ${s.map((v, i) => cell(v, b[i])).join('| ')}`);

console.log(`\nfunctions (not JIT code) whose instructions per request differ most`);
const rows = [];
for (const key of new Set([...service.functions.keys(), ...baseline.functions.keys()])) {
  const [object, fn] = key.split('\t');
  if (codeKind(object, fn) === 'JIT code') continue;
  const s = perRequest(service, service.functions.get(key));
  const b = perRequest(baseline, baseline.functions.get(key));
  rows.push({ fn, s, b });
}
rows.sort((x, y) => Math.abs(y.s[0] - y.b[0]) - Math.abs(x.s[0] - x.b[0]));
for (const { fn, s, b } of rows.slice(0, top)) console.log(`${s.map((v, i) => cell(v, b[i])).join('| ')}| ${fn.slice(0, 110)}`);
