// BENCH_PERF_STAT: event counts of a process's main thread over a measured window, from
// `perf stat` (instructions, cycles, cache and branch misses where the host's CPU exposes them;
// software events such as page-faults and context-switches everywhere). CPU time per request
// says how much a change costs; instructions against cycles say whether it runs more code or
// runs the same code slower (docs/performance.md, "The eleventh round").
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
