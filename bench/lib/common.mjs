// Shared helpers of the benchmark harness: paths, settings from the environment, module
// resolution from the apps' dependency trees, free ports.
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cachesimArgs, counterEvents } from './counters.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const benchDir = join(root, 'bench');
export const resultsDir = join(benchDir, 'results');

/** The Node binary running the harness (Node 24 from node_modules/.bin when run through pnpm). */
export const nodeBin = process.execPath;

function int(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}: expected a non-negative number, got "${raw}"`);
  return n;
}

/** Settings of one run, from the environment (see docs/performance.md). */
export function settings() {
  const quick = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';
  // The CPU cost rows' pairs: driven in alternating short slices (default), over the same
  // seconds (concurrent), one after the other (sequential), or over the same seconds at a
  // fixed rate below what the CPU answers, both on one CPU (rate).
  const costPairs = ['sequential', 'concurrent', 'rate'].includes(process.env.BENCH_COST_PAIRS)
    ? process.env.BENCH_COST_PAIRS
    : 'interleaved';
  return {
    quick,
    connections: int('BENCH_CONNECTIONS', 50),
    duration: int('BENCH_DURATION', quick ? 3 : 10),
    warmup: int('BENCH_WARMUP', quick ? 1 : 3),
    rounds: Math.max(1, int('BENCH_ROUNDS', quick ? 1 : 3)),
    workers: int('BENCH_WORKERS', 0),
    users: int('BENCH_USERS', 1_000_000),
    auths: int('BENCH_AUTHS', 10_000),
    coldStarts: int('BENCH_COLD_STARTS', quick ? 1 : 3),
    cases: (process.env.BENCH_CASES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    profile: process.env.BENCH_PROFILE === '1',
    perf: process.env.BENCH_PERF === '1',
    // BENCH_PERF_STAT: events `perf stat` counts on each service's main thread over each measured window.
    perfStat: counterEvents(process.env.BENCH_PERF_STAT),
    // BENCH_CACHESIM=1: each service instance runs under a simulated CPU (callgrind), which counts
    // its instructions and cache misses over each measured window; BENCH_CACHESIM_ARGS its caches.
    cachesim: process.env.BENCH_CACHESIM === '1' ? cachesimArgs(process.env.BENCH_CACHESIM_ARGS) : undefined,
    // BENCH_CACHESIM_KEEP=1: the main thread's dump of each window kept in bench/results/cachesim.
    cachesimKeep: process.env.BENCH_CACHESIM_KEEP === '1',
    costPairs,
    // BENCH_COST_PAIRS=interleaved: the length of one slice, in seconds.
    costSlice: Math.max(1, int('BENCH_COST_SLICE', 2)),
    // The CPU cost rows (interleaved, sequential, rate): the measured processes on CPU 0, the
    // load generators on CPU 1 (BENCH_COST_PIN=0: wherever the host puts them).
    costPin: process.env.BENCH_COST_PIN !== '0' && availableParallelism() >= 2,
    // The CPU cost rows' load: requests per second on each side, 0 for as many as it answers
    // (BENCH_COST_PAIRS=rate: 2,000 unless set).
    costRate: int('BENCH_COST_RATE', costPairs === 'rate' ? 2000 : 0),
    // Another tree's build as every service case's baseline (before / after in one run).
    compareDist: process.env.BENCH_COMPARE_DIST || undefined,
    // The capped mode: each service also as its manifest runs it, next to today's settings.
    memory: process.env.BENCH_MEMORY === 'manifest' || process.argv.includes('--memory-limit'),
    skipBuild: process.env.BENCH_SKIP_BUILD === '1',
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379/0',
  };
}

/** `require` resolving from an app's (or lib's) own dependencies, e.g. `appRequire('account')('pg')`. */
export function appRequire(project) {
  const dir = project.startsWith('libs/') ? project : `apps/${project}`;
  return createRequire(join(root, dir, 'package.json'));
}

/** Imports a package as the given app sees it (works for ESM-only packages such as NestJS 12). */
export async function appImport(project, specifier) {
  return import(pathToFileURL(appRequire(project).resolve(specifier)).href);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A database URL with another database name. */
export function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
