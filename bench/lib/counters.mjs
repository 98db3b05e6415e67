// BENCH_PERF_STAT: event counts of a process's main thread over a measured window, from
// `perf stat` (instructions, cycles, cache and branch misses where the host's CPU exposes them;
// software events such as page-faults and context-switches everywhere). CPU time per request
// says how much a change costs; instructions against cycles say whether it runs more code or
// runs the same code slower (docs/performance.md, "The eleventh round").
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** `BENCH_PERF_STAT=1` counts these. */
export const DEFAULT_EVENTS = ['instructions', 'cycles', 'cache-misses', 'branch-misses', 'page-faults', 'context-switches'];

/** The events a `BENCH_PERF_STAT` value asks for: `1` the defaults, otherwise a comma-separated list; none when unset. */
export function counterEvents(value) {
  if (value === undefined || value === '' || value === '0') return [];
  if (value === '1') return DEFAULT_EVENTS;
  const events = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const e of events) if (!/^[\w.:/=-]+$/.test(e)) throw new Error(`BENCH_PERF_STAT: not an event name: "${e}"`);
  return events;
}

/**
 * The counts of `perf stat -x ,` output, by event: a number, or NaN where perf printed
 * `<not supported>` or `<not counted>` (a VM without the CPU's counters).
 */
export function parsePerfStat(text) {
  const counts = {};
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    // value,unit,event,run time,percentage,…
    const [value, , event] = line.split(',');
    if (!event) continue;
    const name = event.replace(/:u$|:k$/, '').replace(/^cpu\/(.*)\/$/, '$1');
    counts[name] = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  }
  return counts;
}

/**
 * Starts counting `events` on thread `tid` (a process's main thread has its pid as id);
 * `stop()` ends it and resolves with the counts (`parsePerfStat`). A host without `perf`
 * resolves with NaN for every event.
 */
export async function countEvents(tid, events) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-counters-'));
  const file = join(dir, 'stat.csv');
  const proc = spawn('perf', ['stat', '-x', ',', '-e', events.join(','), '-t', String(tid), '-o', file], { stdio: 'ignore' });
  const exited = new Promise((resolve) => {
    proc.once('exit', resolve);
    proc.once('error', resolve);
  });
  // perf attaches in a few milliseconds; the window starts after it has.
  await delay(200);
  return {
    async stop() {
      proc.kill('SIGINT');
      await exited;
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        // no perf on this host: every event NaN below
      }
      rmSync(dir, { recursive: true, force: true });
      const counts = parsePerfStat(text);
      return Object.fromEntries(events.map((e) => [e, counts[e] ?? NaN]));
    },
  };
}

/**
 * BENCH_CACHESIM's simulated caches: a core's first-level caches and, as the last level, a core's
 * own 2 MB second level (the host's last level is shared with every other process, which the
 * simulation does not see: what counts is what one process keeps between its requests).
 */
export const CACHESIM_CACHES = { I1: '32768,8,64', D1: '49152,12,64', LL: '2097152,16,64' };

/** Where callgrind writes its dumps. */
export const CACHESIM_DIR = join(tmpdir(), 'bench-cachesim');

/** Empties `CACHESIM_DIR` at a run's start: an earlier run's processes left their last dumps (tens of MB each). */
export function freshCachesimDir() {
  rmSync(CACHESIM_DIR, { recursive: true, force: true });
  mkdirSync(CACHESIM_DIR, { recursive: true });
}

/**
 * The command that runs a service under callgrind for BENCH_CACHESIM (to put before `node`):
 * instrumented from the start, so that the simulated caches are warm when a window begins;
 * `value` (BENCH_CACHESIM_ARGS) adds or overrides options, e.g. `--LL=1048576,16,64`.
 */
export function cachesimArgs(value) {
  const extra = (value ?? '').split(' ').filter(Boolean);
  for (const a of extra) if (!/^--[\w-]+=[\w,./%-]+$/.test(a)) throw new Error(`BENCH_CACHESIM_ARGS: not a valgrind option: "${a}"`);
  const caches = Object.entries(CACHESIM_CACHES)
    .filter(([level]) => !extra.some((a) => a.startsWith(`--${level}=`)))
    .map(([level, geometry]) => `--${level}=${geometry}`);
  return [
    'valgrind',
    '--tool=callgrind',
    '--cache-sim=yes',
    // V8 writes the code it runs: every write to code outside files is checked.
    '--smc-check=all-non-file',
    '--vgdb=yes',
    // One dump a thread: the window's counts are the main thread's (thread 1), as perf stat's are.
    '--separate-threads=yes',
    `--callgrind-out-file=${join(CACHESIM_DIR, 'callgrind.%p.out')}`,
    ...caches,
    ...extra,
  ];
}

/** callgrind's event names, as the bench prints them. */
const SIMULATED = {
  instructions: (t) => t.Ir,
  'L1i misses': (t) => t.I1mr,
  'L1d misses': (t) => t.D1mr + t.D1mw,
  'LL misses': (t) => t.ILmr + t.DLmr + t.DLmw,
};

/** The totals of a callgrind dump, by its event names (`events:` and `totals:`, else `summary:`). */
export function parseCallgrindTotals(text) {
  const fields = {};
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    const key = line.slice(0, colon);
    if (key === 'events' || key === 'totals' || key === 'summary')
      fields[key] = line
        .slice(colon + 1)
        .trim()
        .split(/\s+/);
  }
  const values = (fields.totals ?? fields.summary)?.map(Number);
  if (!fields.events || !values) return {};
  return Object.fromEntries(fields.events.map((e, i) => [e, values[i] ?? 0]));
}

/** The bench's counts of a dump's totals (NaN for an event the dump lacks). */
export function simulatedCounts(totals) {
  return Object.fromEntries(Object.entries(SIMULATED).map(([name, of]) => [name, of(totals) ?? NaN]));
}

/**
 * Runs `callgrind_control`; resolves with what it printed. Valgrind names the pipes it is reached
 * by after the process's USER and HOST: a service runs with HOST=127.0.0.1 (`startProcess`).
 */
function callgrindControl(args) {
  return new Promise((resolve) => {
    const proc = spawn('callgrind_control', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOST: '127.0.0.1' } });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    proc.once('exit', () => resolve(out));
    proc.once('error', (err) => resolve(err.message));
  });
}

/**
 * Counts the simulated events of a process run by `cachesimArgs` from now: its counters are
 * zeroed; `stop()` dumps them and resolves with `simulatedCounts` of the dump (the window's).
 * With `keepAs` (BENCH_CACHESIM_KEEP=1), the main thread's dump is copied there, to be read by
 * function (bench/cachesim-functions.mjs); the window's dumps are deleted either way.
 */
export async function simulateWindow(pid, keepAs) {
  await callgrindControl(['-z', String(pid)]);
  return {
    async stop() {
      const before = new Set(readdirSync(CACHESIM_DIR));
      const said = await callgrindControl(['-d', String(pid)]);
      const dumps = readdirSync(CACHESIM_DIR).filter((f) => !before.has(f) && f.startsWith(`callgrind.${pid}.out`));
      const main = dumps.find((f) => f.endsWith('-01'));
      if (!main)
        console.error(`  no callgrind dump of process ${pid}: ${said.trim().replace(/\s+/g, ' ')} (${dumps.join(', ') || 'no new file'})`);
      const totals = main ? parseCallgrindTotals(readFileSync(join(CACHESIM_DIR, main), 'utf8')) : {};
      if (main && keepAs) {
        mkdirSync(dirname(keepAs), { recursive: true });
        copyFileSync(join(CACHESIM_DIR, main), keepAs);
      }
      for (const f of dumps) rmSync(join(CACHESIM_DIR, f), { force: true });
      return simulatedCounts(totals);
    },
  };
}

/**
 * The exclusive cost of each function in a callgrind dump (`ob=`/`fn=` blocks; the inclusive cost
 * after a `calls=` line is the callee's and is not added), by "object\tfunction". Names are
 * compressed as `(id) name` on first use and `(id)` after, separately for objects, files and
 * functions; JIT code has no object (`???`) and is named by its address.
 */
export function callgrindFunctions(text) {
  const names = { ob: new Map(), fl: new Map(), fn: new Map() };
  const named = (kind, rest) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(rest);
    if (!m) return rest;
    if (m[2] !== undefined) names[kind].set(m[1], m[2]);
    return names[kind].get(m[1]) ?? '?';
  };
  let events = [];
  let object = '???';
  let fn = '?';
  let callCost = false;
  const functions = new Map();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const c = line.charCodeAt(0);
    // A cost line: a position (a number, `+n`, `-n` or `*`), then the events' counts.
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      if (callCost) {
        callCost = false;
        continue;
      }
      const counts = line.split(' ').slice(1).map(Number);
      const key = `${object}\t${fn}`;
      let sum = functions.get(key);
      if (!sum) functions.set(key, (sum = new Array(events.length).fill(0)));
      for (let i = 0; i < counts.length; i++) sum[i] += counts[i];
      continue;
    }
    const eq = line.indexOf('=');
    const key = eq > 0 ? line.slice(0, eq) : '';
    const rest = line.slice(eq + 1);
    if (line.startsWith('events:')) events = line.slice(7).trim().split(/\s+/);
    else if (key === 'ob') object = named('ob', rest);
    else if (key === 'fn') fn = named('fn', rest);
    else if (key === 'cob') named('ob', rest);
    else if (key === 'cfn') named('fn', rest);
    else if (key === 'fl' || key === 'fi' || key === 'fe' || key === 'cfi' || key === 'cfl') named('fl', rest);
    else if (key === 'calls') callCost = true;
  }
  return { events, functions };
}

/** What kind of code a function of a dump is: JIT code, V8's builtins, its runtime and inline caches, its GC, its other C++, Node's C++, libc, other. */
export function codeKind(object, fn) {
  if (object === '???' || /^0x[0-9a-f]+$/.test(fn)) return 'JIT code';
  if (fn.startsWith('Builtins_')) return 'V8 builtins';
  if (/Scaveng|MinorMS|MarkCompact|Sweeper|Evacuat|GCTracer|::Heap::/.test(fn)) return 'V8 GC';
  if (/Runtime_|\bIC::|FeedbackNexus|LookupIterator|MigrateToMap|TransitionToDataProperty|Map::Transition/.test(fn))
    return 'V8 runtime, inline caches, object shapes';
  if (/^(v8::|unibrow::)/.test(fn) || fn.includes(' v8::')) return 'V8 other C++';
  if (/^(node::|uv_|ares_|nghttp|llhttp)/.test(fn) || fn.includes(' node::')) return 'Node C++, libuv';
  if (/\/libc\.so|\/ld-linux/.test(object)) return 'libc';
  return 'other';
}
