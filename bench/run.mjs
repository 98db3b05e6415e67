#!/usr/bin/env node
// `pnpm bench`: builds the apps, starts the compiled services on free ports against the real
// PostgreSQL and Redis (a fresh database and a key prefix of this run, removed at the end),
// seeds data by SQL, drives each case and its baseline with autocannon in a separate process,
// and prints one table (also written as JSON under bench/results/). Settings: see
// docs/performance.md (BENCH_QUICK, BENCH_CONNECTIONS, BENCH_DURATION, BENCH_CASES, ...).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { nodeBin, resultsDir, root, settings, sleep } from './lib/common.mjs';
import { drive, driveTogether } from './lib/load.mjs';
import { startProcess } from './lib/proc.mjs';
import { machine, tableLines } from './lib/report.mjs';
import { chartSvg } from './lib/chart.mjs';
import { preflight } from './lib/preflight.mjs';
import { topFrames } from './lib/profile.mjs';
import { countEvents, freshCachesimDir, simulateWindow } from './lib/counters.mjs';
import { floorCases } from './cases/floor.mjs';
import { BenchDatabase, BenchRedis } from './lib/stores.mjs';
import { startBenchSlapd } from './lib/slapd.mjs';
import { cappedRuntime, imageProcess, RssSampler } from './lib/memory.mjs';
import { ensureSystemPackages } from '../scripts/system-packages.mjs';
import { memoryTableLines } from './lib/report.mjs';

const s = settings();
const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const startedAt = new Date();
const m = machine();
const rows = [];
const children = new Set();
let floorRps;
/** The run's context (stores, app, service env), set by `runAll`. */
let benchCtx;

const say = (line) => process.stdout.write(`${line}\n`);

/** A bench app of its own (the services start in production mode, so none is implicit). */
const app = {
  appToken: `app-${randomBytes(8).toString('hex')}`,
  secret: randomBytes(24).toString('hex'),
  aesKey: randomBytes(12).toString('hex'),
  aesMode: 'gcm',
};

const SERVICES = {
  account: { main: join(root, 'apps/account/dist/main.js') },
  location: { main: join(root, 'apps/location/dist/main.js') },
};

function wanted(c) {
  if (s.cases.length === 0) return true;
  return s.cases.some((f) => c.id.includes(f) || c.title.toLowerCase().includes(f.toLowerCase()));
}

/**
 * The services' `node` flags before the capped mode, and the uncapped side of it
 * (BENCH_MEMORY=manifest): no heap limit, glibc's default arenas.
 */
const UNCAPPED_NODE_ARGS = ['--enable-source-maps', '--max-semi-space-size=16'];

/** The service whose compiled main `script` is, if any. */
const serviceOf = (script) => Object.keys(SERVICES).find((name) => SERVICES[name].main === script);

/**
 * Starts a process; a service with today's flags, or with `capped: true` (BENCH_MEMORY=manifest)
 * as its image and manifest run it: their `node` flags and env under the bench's own settings.
 */
async function start(name, script, { capped, cost, ...opts } = {}) {
  const service = serviceOf(script);
  let child;
  if (service && capped) {
    const runtime = cappedRuntime(service, opts.env ?? {});
    child = await startProcess(name, script, { ...opts, nodeArgs: runtime.nodeArgs, env: { ...runtime.env, ...opts.env } });
    child.memory = { limitMiB: runtime.limitMiB, limit: runtime.limit, sampler: new RssSampler(child.pid) };
  } else if (service && s.memory) {
    child = await startProcess(name, script, { ...opts, nodeArgs: UNCAPPED_NODE_ARGS });
    child.memory = { sampler: new RssSampler(child.pid) };
  } else if (service) {
    // As the image runs it (docker/<service>.Dockerfile): its `node` flags, NODE_OPTIONS, MALLOC_ARENA_MAX.
    const image = imageProcess(service);
    // BENCH_PERF=1: JavaScript's names for perf; BENCH_NODE_ARGS: V8 flags of an experiment (--trace-deopt).
    const perfMap = [...(s.perf ? ['--perf-basic-prof'] : []), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
    // BENCH_CACHESIM=1: the cost rows' instances on a simulated CPU, a hundred times slower than
    // the host's: Redis commands given the time (the same code runs, with a longer timer).
    const simulated = Boolean(cost && s.cachesim);
    child = await startProcess(name, script, {
      ...opts,
      nodeArgs: [...image.nodeArgs, ...perfMap],
      env: { ...image.env, ...opts.env, ...(simulated ? { REDIS_COMMAND_TIMEOUT_MS: '10000' } : {}) },
      wrap: simulated ? s.cachesim : [],
    });
    child.simulated = simulated;
  } else child = await startProcess(name, script, opts);
  children.add(child);
  return child;
}

/** A service's build from another tree, with the `node` flags and env of the service's image. */
async function startAsImage(name, service, script, opts) {
  const image = imageProcess(service);
  const child = await startProcess(name, script, { ...opts, nodeArgs: image.nodeArgs, env: { ...image.env, ...opts.env } });
  children.add(child);
  return child;
}

async function stop(child) {
  if (!child) return;
  child.memory?.sampler.stop();
  await child.stop();
  children.delete(child);
}

/**
 * Drives one target. Also reads the target process's CPU time over the measured window, so
 * that the CPU cost per request can be compared even on a machine that other work shares;
 * with BENCH_PROFILE=1 the measured window of the first round is CPU-profiled.
 */
async function measure(url, spec, target, label, round, opts = {}) {
  const side = measuring(url, spec, target, label, round, opts);
  return side.finish(await drive(side.spec, side));
}

/**
 * Fresh targets measured over the same window (`driveTogether`), each with a load generator of
 * its own: the CPU cost rows' rounds (one target at a time with BENCH_COST_PAIRS=sequential).
 */
async function measureTogether(targets, round) {
  const sides = targets.map((m) => measuring(m.url, m.spec, m.target, m.label, round, { fresh: true }));
  const results = await driveTogether(sides);
  return results.map((result, i) => sides[i].finish(result));
}

/**
 * One round of a CPU cost row with BENCH_COST_PAIRS=interleaved: both processes started, each
 * warmed, then driven one at a time in short slices (BENCH_COST_SLICE seconds) in the order
 * A B B A A B ..., so that a change of the host's speed (seconds to minutes long on a shared
 * virtual machine) falls on both sides alike, while neither shares the CPU with the other.
 * Each side's round is its slices together: their CPU time over their requests.
 */
async function interleavedRound(sides, round, load, pin) {
  const procs = [];
  try {
    for (const { name, side } of sides) {
      const proc = await start(name, side.script, { env: side.env, cost: true, ...(pin ? { cpus: '0' } : {}) });
      procs.push(proc);
      await preflight(proc.url, side.spec, name);
    }
    const specOf = (i, duration) => ({ ...load, ...sides[i].side.spec, duration, warmup: 0, ...(pin ? { cpus: '1' } : {}) });
    for (let i = 0; i < sides.length; i++) await drive({ url: procs[i].url, workers: s.workers, ...specOf(i, s.warmup) });
    const slices = sides.map(() => []);
    const count = Math.max(1, Math.round(s.duration / s.costSlice));
    for (let k = 0; k < count; k++) {
      const order = k % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        // Not the first round's profile (measuring's `round === 0`): slices are not profiled.
        slices[i].push(await measure(procs[i].url, specOf(i, s.costSlice), procs[i], sides[i].name, round + 1));
      }
    }
    sides.forEach(({ runs }, i) => runs.push(joinSlices(slices[i])));
  } finally {
    for (const proc of procs) await stop(proc);
  }
}

/** A side's slices as one run: summed requests, and CPU per request weighted by them. */
function joinSlices(slices) {
  const joined = combine(slices);
  const total = slices.reduce((n, r) => n + r.total, 0);
  const weighted = (f) => slices.reduce((sum, r) => sum + f(r) * r.total, 0) / total;
  return {
    ...joined,
    rounds: undefined,
    cpuUsPerRequest: weighted((r) => r.cpuUsPerRequest),
    threadUsPerRequest: Object.fromEntries(
      Object.keys(slices[0].threadUsPerRequest).map((k) => [k, weighted((r) => r.threadUsPerRequest[k])]),
    ),
    pgPerRequest: weighted((r) => r.pgPerRequest ?? NaN),
    redisPerRequest: weighted((r) => r.redisPerRequest ?? NaN),
    counters:
      slices[0].counters && Object.fromEntries(Object.keys(slices[0].counters).map((e) => [e, weighted((r) => r.counters?.[e] ?? NaN)])),
  };
}

/** What `measure` and `measureTogether` drive a target with, and the result's figures once driven. */
function measuring(url, spec, target, label, round, { fresh = false } = {}) {
  let profileFile;
  let cpuStart;
  let cpuEnd;
  let threadsStart;
  let threadsEnd;
  let perf;
  let perfFile;
  let counting;
  let simulating;
  let keptDump;
  let counts;
  let stStart;
  let stEnd;
  const profile = s.profile && round === 0;
  return {
    spec: {
      url,
      connections: s.connections,
      duration: s.duration,
      warmup: round === 0 || fresh ? s.warmup : 0,
      workers: s.workers,
      round,
      ...spec,
    },
    onMeasureStart: async () => {
      // BENCH_PERF=1: the main thread's native profile (V8's builtins, its runtime, the GC, libc)
      // over a process's first measured window; JavaScript named through --perf-basic-prof.
      if (s.perf && !target.perfRecorded) {
        target.perfRecorded = true;
        perfFile = join(resultsDir, 'profiles', `perf-${label}-${Date.now()}.data`);
        mkdirSync(dirname(perfFile), { recursive: true });
        perf = spawn('perf', ['record', '-q', '-g', '-F', '997', '-t', String(target.pid), '-o', perfFile], { stdio: 'ignore' });
        await sleep(300);
      }
      if (s.perfStat.length > 0) counting = await countEvents(target.pid, s.perfStat);
      if (s.cachesim && target.simulated) {
        keptDump = s.cachesimKeep ? join(resultsDir, 'cachesim', `${label}-round${round}-${Date.now()}.out`) : undefined;
        simulating = await simulateWindow(target.pid, keptDump);
      }
      stStart = await target.statements();
      if (profile) target.startProfile();
      cpuStart = target.cpuMs();
      threadsStart = target.cpuByThread();
    },
    onMeasureEnd: async () => {
      cpuEnd = target.cpuMs();
      threadsEnd = target.cpuByThread();
      if (counting) counts = await counting.stop();
      if (simulating) counts = { ...counts, ...(await simulating.stop()) };
      if (perf) {
        const exited = new Promise((resolve) => perf.once('exit', resolve));
        perf.kill('SIGINT');
        await exited;
        say(`  perf of ${label}: ${perfFile.replace(`${root}/`, '')}`);
        const report = spawnSync(
          'perf',
          ['report', '-i', perfFile, '--stdio', '--no-children', '--sort', 'dso,sym', '--percent-limit', '0.7'],
          { encoding: 'utf8' },
        );
        for (const line of report.stdout
          .split('\n')
          .filter((l) => /^\s+\d/.test(l))
          .slice(0, 40))
          say(`    ${line.trim()}`);
      }
      if (profile) profileFile = await target.stopProfile();
      stEnd = await target.statements();
    },
    finish: (result) => {
      result.cpuUsPerRequest = result.total > 0 ? ((cpuEnd - cpuStart) * 1000) / result.total : undefined;
      // The same CPU time by kind of thread (the profile sees the main thread only).
      if (result.total > 0) {
        result.threadUsPerRequest = Object.fromEntries(
          Object.keys(threadsEnd).map((k) => [k, ((threadsEnd[k] - threadsStart[k]) * 1000) / result.total]),
        );
      }
      // BENCH_PERF_STAT: the main thread's event counts per request (NaN where the host has no such counter).
      if (counts && result.total > 0) result.counters = Object.fromEntries(Object.entries(counts).map(([e, n]) => [e, n / result.total]));
      // BENCH_CACHESIM_KEEP: the window's requests beside its dump (bench/cachesim-functions.mjs reads both).
      if (keptDump && existsSync(keptDump)) writeFileSync(`${keptDump}.json`, JSON.stringify({ label, round, requests: result.total }));
      // Statements (PostgreSQL) and commands (Redis) per request, counted in the process itself.
      if (stStart && stEnd && result.total > 0) {
        result.pgPerRequest = (stEnd.pg - stStart.pg) / result.total;
        result.redisPerRequest = (stEnd.redis - stStart.redis) / result.total;
      }
      if (profileFile) {
        result.profile = {
          file: profileFile.replace(`${root}/`, ''),
          top: topFrames(profileFile, 12),
          packages: topFrames(profileFile, 14, { byPackage: true }),
          layers: topFrames(profileFile, 14, { byArea: true }),
        };
        // Self time per request of each layer: its share of the busy samples times the window's CPU
        // per request. The profile samples the main thread: where worker threads burn CPU (argon2id's
        // hashes on libuv's pool), the shares apply to the main thread's part only, which the
        // figures then overstate.
        const cpuUs = result.cpuUsPerRequest;
        const perRequest = (f) => (cpuUs === undefined ? '' : `  ${((f.selfPct / 100) * cpuUs).toFixed(1).padStart(7)} us/req`);
        result.profile.usPerRequest = Object.fromEntries(
          result.profile.layers.map((f) => [f.name, cpuUs === undefined ? undefined : (f.selfPct / 100) * cpuUs]),
        );
        say(`  profile of ${label}: ${result.profile.file}`);
        for (const f of result.profile.top) say(`    ${f.selfPct.toFixed(1).padStart(5)}%  ${f.name}  ${f.where}`);
        say(`  by layer (self time: % of the busy samples, and that share of the window's ${cpuUs?.toFixed(0)} us CPU per request):`);
        for (const f of result.profile.layers) say(`    ${f.selfPct.toFixed(1).padStart(5)}%${perRequest(f)}  ${f.name}`);
        say('  by package:');
        for (const f of result.profile.packages) say(`    ${f.selfPct.toFixed(1).padStart(5)}%${perRequest(f)}  ${f.name}`);
      }
      return result;
    },
  };
}

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

/** Several rounds of one target as one result: mean req/s, median latencies, summed failures. */
function combine(runs) {
  if (runs.length === 1) return runs[0];
  const sum = (k) => runs.reduce((a, r) => a + r[k], 0);
  const latency = {};
  for (const k of Object.keys(runs[0].latency)) latency[k] = median(runs.map((r) => r.latency[k]));
  const statusCodes = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.statusCodes)) statusCodes[k] = (statusCodes[k] ?? 0) + v;
  return {
    requestsPerSecond: sum('requestsPerSecond') / runs.length,
    total: sum('total'),
    latency,
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    mismatches: sum('mismatches'),
    statusCodes,
    cpuUsPerRequest: median(runs.map((r) => r.cpuUsPerRequest ?? NaN)),
    threadUsPerRequest:
      runs[0].threadUsPerRequest &&
      Object.fromEntries(
        Object.keys(runs[0].threadUsPerRequest).map((k) => [k, median(runs.map((r) => r.threadUsPerRequest?.[k] ?? NaN))]),
      ),
    pgPerRequest: median(runs.map((r) => r.pgPerRequest ?? NaN)),
    redisPerRequest: median(runs.map((r) => r.redisPerRequest ?? NaN)),
    counters:
      runs[0].counters &&
      Object.fromEntries(Object.keys(runs[0].counters).map((e) => [e, median(runs.map((r) => r.counters?.[e] ?? NaN))])),
    rounds: runs.map((r) => ({
      requestsPerSecond: r.requestsPerSecond,
      p99: r.latency.p99,
      cpuUsPerRequest: r.cpuUsPerRequest,
      threadUsPerRequest: r.threadUsPerRequest,
      pgPerRequest: r.pgPerRequest,
      redisPerRequest: r.redisPerRequest,
      counters: r.counters,
    })),
    profile: runs.find((r) => r.profile)?.profile,
  };
}

function failures(r) {
  if (r.total === 0) return 'no answer within the measured window';
  const bad = r.non2xx + r.errors + r.timeouts + r.mismatches;
  if (bad === 0) return '';
  const codes = Object.entries(r.statusCodes)
    .filter(([k]) => !k.startsWith('2'))
    .map(([k, v]) => `${k}x${v}`)
    .join(' ');
  return `${r.non2xx} non-2xx${codes ? ` (${codes})` : ''}, ${r.errors} errors, ${r.timeouts} timeouts, ${r.mismatches} wrong bodies`;
}

function targetLabel(target) {
  if (!target) return '-';
  if (target.ratio !== undefined) return `ratio >= ${target.ratio}`;
  if (target.timeFactor !== undefined) return `time <= ${target.timeFactor}x baseline`;
  if (target.p99Ms !== undefined) return `p99 < ${target.p99Ms} ms`;
  if (target.cpuCost !== undefined) return `CPU cost <= ${pct(target.cpuCost)}`;
  return '-';
}

const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(x !== 0 && Math.abs(x) < 0.1 ? 1 : 0)}%`;

/**
 * The extra CPU time per request of the service over its baseline, per alternating round
 * (`svc / base - 1`), and the figure a cost target is judged on: the mean of the two orders'
 * medians. The rounds alternate which side is started and driven first, and the order itself
 * shows (about 10 points between the two orders of an untraced pair on the 2-core host,
 * docs/performance.md), so each order's rounds are taken apart and given equal weight.
 */
function cpuCosts(svc, base) {
  const bases = base.rounds ?? [base];
  const all = (svc.rounds ?? [svc]).map((r, i) => r.cpuUsPerRequest / bases[i].cpuUsPerRequest - 1);
  const rounds = all.filter(Number.isFinite);
  const orders = [0, 1].map((parity) => all.filter((x, i) => i % 2 === parity && Number.isFinite(x))).filter((o) => o.length > 0);
  return { rounds, figure: orders.reduce((sum, o) => sum + median(o), 0) / orders.length };
}

/**
 * Verdict of a case against its target, and its score for the chart: the measure over its
 * goal, oriented so that 1 is the goal and more is better.
 */
function judge(target, svc, base) {
  if (!target) return { targetText: '-', met: undefined };
  if (target.ratio !== undefined) {
    const ratio = svc.requestsPerSecond / base.requestsPerSecond;
    return { targetText: targetLabel(target), met: ratio >= target.ratio, score: ratio / target.ratio };
  }
  if (target.timeFactor !== undefined) {
    const factor = svc.latency.mean / base.latency.mean;
    return {
      targetText: `${targetLabel(target)} (${factor.toFixed(2)}x)`,
      met: factor <= target.timeFactor,
      score: target.timeFactor / factor,
    };
  }
  if (target.p99Ms !== undefined) {
    return { targetText: targetLabel(target), met: svc.latency.p99 < target.p99Ms, score: target.p99Ms / Math.max(svc.latency.p99, 0.01) };
  }
  if (target.cpuCost !== undefined) {
    const cost = cpuCosts(svc, base);
    return {
      targetText: `${targetLabel(target)} (${pct(cost.figure)})`,
      met: cost.figure <= target.cpuCost,
      score: (1 + target.cpuCost) / (1 + cost.figure),
      cpuCost: cost,
    };
  }
  return { targetText: '-', met: undefined };
}

/** Runs one case: the service side, then its baseline in a process of its own. */
async function runCase(c, index, total, targets) {
  const tag = `[${index}/${total}] ${c.title}`;
  say(`${tag} ...`);
  const t0 = performance.now();
  const row = { id: c.id, title: c.title, service: c.service };
  try {
    const target = targets[c.service];
    if (c.service && !target) throw new Error(`${c.service} service not running`);
    const plan = await c.prepare();
    if (plan.custom) {
      // A case that measures by itself (medians of sequential requests), not under autocannon's load.
      Object.assign(row, await plan.custom(target.url));
      rows.push(row);
      say(`${tag}: ${row.value} (${((performance.now() - t0) / 1000).toFixed(1)}s)`);
      return;
    }
    // BENCH_COMPARE_DIST: the baseline is the same service built from another tree (the build
    // before a change), started as the image runs it, on the same stores, asked the same requests.
    if (s.compareDist && c.service && !plan.own) {
      plan.baseline = {
        script: join(s.compareDist, 'apps', c.service, 'dist/main.js'),
        env: benchCtx.serviceEnv[c.service],
        spec: plan.service,
        image: c.service,
      };
      plan.notes = `baseline: the build of ${s.compareDist}`;
    }
    // The measured side: a running service, or (floor rows) a process of the case's own.
    let own;
    let b;
    const svcRuns = [];
    const baseRuns = [];
    // CPU cost rows (tracing): each round on two fresh processes, so that what one process
    // happens to be (its JIT's choices, its memory layout; ±10-20% between two identical
    // instances here) is averaged over the rounds instead of kept by one side for the whole case.
    // By default the two are driven in alternating slices of a few seconds (`interleavedRound`)
    // on one CPU, their load generator on the other, so that a change of the host's speed hits
    // both alike and neither competes with the other for a CPU (docs/performance.md, "The
    // fourth round"); BENCH_COST_PAIRS=concurrent measures them over the same seconds, each by
    // a load generator of its own (`measureTogether`), and =sequential one after the other, in
    // an order swapped every round. BENCH_COST_PAIRS=rate is concurrent at a fixed rate
    // (BENCH_COST_RATE, 2,000 requests per second each) that leaves the CPU idle part of the
    // time, both processes on CPU 0 and their load generators on CPU 1: each side answers the same
    // requests at the same pace, so neither batches more work per turn of its event loop than the
    // other ("The sixth round").
    const freshPairs = c.target?.cpuCost !== undefined && plan.own && plan.baseline && !plan.baseline.image;
    try {
      if (freshPairs) {
        const connections = c.connections ?? s.connections;
        const rate = s.costRate > 0 ? { overallRate: s.costRate } : {};
        // BENCH_COST_PIN: the measured processes on CPU 0, their load generators on CPU 1 (one
        // side at a time but for the rate mode, where both share CPU 0 below its capacity).
        const pin = s.costPin && s.costPairs !== 'concurrent';
        for (let r = 0; r < s.rounds; r++) {
          const sides = [
            { name: c.id, side: plan.own, runs: svcRuns },
            { name: `${c.id}-baseline`, side: plan.baseline, runs: baseRuns },
          ];
          if (r % 2 === 1) sides.reverse();
          if (s.costPairs === 'interleaved') {
            await interleavedRound(sides, r, { connections, ...rate }, pin);
            continue;
          }
          // Both sides over the same seconds, or (sequential) each alone, one after the other.
          const groups = s.costPairs === 'sequential' ? sides.map((one) => [one]) : [sides];
          for (const group of groups) {
            const procs = [];
            try {
              for (const { name, side } of group) {
                const proc = await start(name, side.script, {
                  env: side.env,
                  cost: true,
                  profile: s.profile && r === 0,
                  ...(pin ? { cpus: '0' } : {}),
                });
                procs.push(proc);
                await preflight(proc.url, side.spec, name);
              }
              const results = await measureTogether(
                group.map(({ name, side }, i) => ({
                  url: procs[i].url,
                  spec: { connections, ...side.spec, ...rate, ...(pin ? { cpus: '1' } : {}) },
                  target: procs[i],
                  label: name,
                })),
                r,
              );
              group.forEach(({ runs }, i) => runs.push(results[i]));
            } finally {
              for (const proc of procs) await stop(proc);
            }
          }
        }
      } else {
        await measureInPlace();
      }
    } finally {
      await stop(own);
      await stop(b);
      // Helpers the case started itself (an OTLP receiver).
      await plan.cleanup?.();
    }
    async function measureInPlace() {
      if (plan.own) own = await start(c.id, plan.own.script, { env: plan.own.env, profile: s.profile });
      const svcTarget = own ?? target;
      const svcSpec = plan.own ? plan.own.spec : plan.service;
      await preflight(svcTarget.url, svcSpec, c.service ?? c.id);
      if (plan.baseline) {
        b = plan.baseline.image
          ? await startAsImage(`${c.id}-baseline`, plan.baseline.image, plan.baseline.script, {
              env: plan.baseline.env,
              profile: s.profile,
              timeoutMs: 120_000,
            })
          : await start(`${c.id}-baseline`, plan.baseline.script, { env: plan.baseline.env, profile: s.profile });
        await preflight(b.url, plan.baseline.spec, `${c.id} baseline`);
      }
      const connections = c.connections ?? s.connections;
      // Service and baseline alternate, round by round, so a change of the machine's load
      // hits both sides alike.
      for (let r = 0; r < s.rounds; r++) {
        svcRuns.push(await measure(svcTarget.url, { connections, ...svcSpec }, svcTarget, c.id, r));
        if (b) baseRuns.push(await measure(b.url, { connections, ...plan.baseline.spec }, b, `${c.id}-baseline`, r));
      }
    }
    const svc = combine(svcRuns);
    const base = baseRuns.length > 0 ? combine(baseRuns) : undefined;
    row.result = svc;
    row.rps = svc.requestsPerSecond;
    row.p50 = svc.latency.p50;
    row.p99 = svc.latency.p99;
    row.cpuUs = svc.cpuUsPerRequest;
    row.pg = svc.pgPerRequest;
    row.redis = svc.redisPerRequest;
    if (base) {
      row.baselinePg = base.pgPerRequest;
      row.baselineRedis = base.redisPerRequest;
      row.baseline = base;
      row.baselineRps = base.requestsPerSecond;
      row.ratio = svc.requestsPerSecond / base.requestsPerSecond;
      row.baselineCpuUs = base.cpuUsPerRequest;
    }
    if (c.floorGoal && floorRps) row.floorRatio = svc.requestsPerSecond / floorRps;
    Object.assign(row, judge(c.target, svc, base));
    if (c.target?.cpuCost !== undefined) {
      row.costTarget = c.target.noiseFloor ? undefined : c.target.cpuCost;
      row.noiseFloor = c.target.noiseFloor === true;
    }
    const notes = [
      c.connections && c.connections !== s.connections ? `-c ${c.connections}` : '',
      plan.notes,
      failures(svc) && `service: ${failures(svc)}`,
      base && failures(base) && `baseline: ${failures(base)}`,
    ];
    if (c.target?.p99Ms !== undefined && base) notes.push(`baseline p99 ${base.latency.p99} ms`);
    if (c.floorGoal && row.floorRatio !== undefined) notes.push(`floor goal >= 0.8: ${row.floorRatio >= 0.8 ? 'met' : 'not met'}`);
    row.notes = notes.filter(Boolean).join('; ');
    if (failures(svc)) row.met = false;
    if (c.onResult) c.onResult(row);
  } catch (err) {
    row.error = err.message;
    row.notes = `not measured: ${err.message.split('\n')[0]}`;
    row.met = c.target ? false : undefined;
    row.targetText = targetLabel(c.target);
    if (process.env.BENCH_VERBOSE === '1') say(err.stack);
  }
  rows.push(row);
  const took = ((performance.now() - t0) / 1000).toFixed(1);
  const summary = row.error
    ? `FAILED: ${row.notes}`
    : `${Math.round(row.rps)} req/s, p99 ${row.p99} ms${row.baselineRps ? `, baseline ${Math.round(row.baselineRps)} req/s, ratio ${row.ratio.toFixed(2)}` : ''}${row.met === undefined ? '' : row.met ? ' - met' : ' - NOT met'}`;
  say(`${tag}: ${summary} (${took}s)`);
  if (!row.error) say(`  cost: ${costLine(row)}`);
}

/** The cost model of a case: CPU per request and statements per request, service / baseline. */
function costLine(row) {
  const n = (v, d = 0) => (v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(d));
  const cpuRatio = row.cpuUs && row.baselineCpuUs ? ` (baseline / service ${n(row.baselineCpuUs / row.cpuUs, 2)})` : '';
  return (
    `CPU ${n(row.cpuUs)} / ${n(row.baselineCpuUs)} us per request${cpuRatio}; ` +
    `PostgreSQL statements ${n(row.pg, 2)} / ${n(row.baselinePg, 2)}, Redis commands ${n(row.redis, 2)} / ${n(row.baselineRedis, 2)} per request (service / baseline); load average ${loadavg()[0].toFixed(1)} on ${m.cores} cores`
  );
}

/** The goals of the capped mode (issue #16): the share of the limit and the throughput kept. */
const MEMORY_GOAL = { maxShareOfLimit: 0.8, minRatio: 0.9 };

/**
 * One case in the capped mode (BENCH_MEMORY=manifest): the service as its manifest runs it
 * ("capped") against the same service with today's settings ("uncapped"), both driven the
 * same way in alternating rounds (the order swapped each round); the capped side's VmRSS is
 * sampled every 100 ms over the case, warm-ups included.
 */
async function runMemoryCase(c, index, total, targets, uncappedTargets) {
  const tag = `[${index}/${total}] ${c.title}`;
  say(`${tag} ...`);
  const t0 = performance.now();
  const row = { id: c.id, title: c.title, service: c.service, memory: true };
  try {
    if (!targets[c.service]) throw new Error(`${c.service} service not running`);
    const plan = await c.prepare();
    let ownCapped;
    let ownUncapped;
    const cappedRuns = [];
    const uncappedRuns = [];
    try {
      if (plan.own) {
        ownUncapped = await start(`${c.id}-uncapped`, plan.own.script, { env: plan.own.env });
        ownCapped = await start(`${c.id}-capped`, plan.own.script, { env: plan.own.env, capped: true });
      }
      const capped = ownCapped ?? targets[c.service];
      const uncapped = ownUncapped ?? uncappedTargets[c.service];
      const spec = { connections: c.connections ?? s.connections, ...(plan.own ? plan.own.spec : plan.service) };
      // Points never asked before stay so when both sides share the Redis cache: a lane each.
      const onLane = (lane) => (spec.generator?.kind === 'lbs-unique' ? { ...spec, generator: { ...spec.generator, lane } } : spec);
      const cappedSpec = onLane(0);
      const uncappedSpec = onLane(1);
      await preflight(capped.url, cappedSpec, `${c.id} capped`);
      await preflight(uncapped.url, uncappedSpec, `${c.id} uncapped`);
      capped.memory.sampler.reset();
      uncapped.memory.sampler.reset();
      for (let r = 0; r < s.rounds; r++) {
        const sides = [
          [capped, cappedSpec, cappedRuns, 'capped'],
          [uncapped, uncappedSpec, uncappedRuns, 'uncapped'],
        ];
        if (r % 2 === 0) sides.reverse();
        for (const [target, sideSpec, runs, label] of sides) {
          runs.push(await measure(target.url, sideSpec, target, `${c.id}-${label}`, r));
          if (target.exited) throw new Error(`the ${label} ${c.service} exited during the case:\n${target.describe()}`);
        }
      }
      row.peakRssMb = capped.memory.sampler.peak();
      row.uncappedPeakRssMb = uncapped.memory.sampler.peak();
      row.highWaterMb = capped.memory.sampler.highWater();
      row.limitMiB = capped.memory.limitMiB;
      row.limit = capped.memory.limit;
      row.samples = capped.memory.sampler.samples;
    } finally {
      await stop(ownCapped);
      await stop(ownUncapped);
      await plan.cleanup?.();
    }
    const svc = combine(cappedRuns);
    const base = combine(uncappedRuns);
    row.result = svc;
    row.uncapped = base;
    row.requests = svc.total;
    row.failed = svc.non2xx + svc.errors + svc.timeouts + svc.mismatches;
    row.rps = svc.requestsPerSecond;
    row.uncappedRps = base.requestsPerSecond;
    row.ratio = svc.requestsPerSecond / base.requestsPerSecond;
    row.p99 = svc.latency.p99;
    row.cpuUs = svc.cpuUsPerRequest;
    row.uncappedCpuUs = base.cpuUsPerRequest;
    row.shareOfLimit = row.peakRssMb / row.limitMiB;
    row.met = row.failed === 0 && svc.total > 0 && row.shareOfLimit <= MEMORY_GOAL.maxShareOfLimit && row.ratio >= MEMORY_GOAL.minRatio;
    row.notes = [
      c.connections && c.connections !== s.connections ? `-c ${c.connections}` : '',
      failures(svc) && `capped: ${failures(svc)}`,
      failures(base) && `uncapped: ${failures(base)}`,
      `VmHWM ${Math.round(row.highWaterMb)} MB`,
    ]
      .filter(Boolean)
      .join('; ');
  } catch (err) {
    row.error = err.message;
    row.notes = `not measured: ${err.message.split('\n')[0]}`;
    row.met = false;
    if (process.env.BENCH_VERBOSE === '1') say(err.stack);
  }
  rows.push(row);
  const took = ((performance.now() - t0) / 1000).toFixed(1);
  say(
    `${tag}: ${
      row.error
        ? `FAILED: ${row.notes}`
        : `${row.requests} requests, ${row.failed} failed, capped ${Math.round(row.rps)} / uncapped ${Math.round(row.uncappedRps)} req/s ` +
          `(ratio ${row.ratio.toFixed(2)}), peak RSS ${Math.round(row.peakRssMb)} MB = ${Math.round(row.shareOfLimit * 100)}% of ${row.limit}` +
          ` (uncapped ${Math.round(row.uncappedPeakRssMb)} MB)${row.met ? ' - met' : ' - NOT met'}`
    } (${took}s)`,
  );
}

async function runAll() {
  say(`bench ${runId}: ${m.cores} x ${m.cpu}, ${m.memoryGb} GB, Node ${m.node}`);
  say(
    `  -c ${s.connections}, ${s.duration}s measured after ${s.warmup}s warm-up${s.workers > 1 ? `, ${s.workers} load workers` : ''}${s.quick ? ' (quick)' : ''}` +
      `${s.rounds > 1 ? `, ${s.rounds} alternating rounds` : ''}${s.profile ? ', CPU profiles on' : ''}`,
  );
  if (s.memory) say("  capped mode (BENCH_MEMORY=manifest): each service as its image and manifest run it, against today's settings");
  if (s.cachesim) {
    say(`  simulated CPU (BENCH_CACHESIM=1) for the cost rows: ${s.cachesim.filter((a) => /^--(I1|D1|LL)=/.test(a)).join(' ')}`);
    ensureSystemPackages([{ binary: 'valgrind', pkg: 'valgrind' }], { log: say });
    freshCachesimDir();
  }
  const [load1] = loadavg();
  if (load1 > m.cores / 2)
    say(`  warning: load average ${load1.toFixed(1)} on ${m.cores} cores before the run; other work will skew the figures`);

  if (!s.skipBuild) {
    say('building (nx run-many -t build) ...');
    const build = spawnSync(nodeBin, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'run-many', '-t', 'build', '--output-style=static'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (build.status !== 0) throw new Error('build failed; run `pnpm build` to see why');
  }
  // The service cases sign with the built libs: imported once the build is there (a fresh clone has none).
  const { accountCases, accountEnv, seedAccount } = await import('./cases/account.mjs');
  const { locationCases, locationEnv } = await import('./cases/location.mjs');

  const db = new BenchDatabase(s.databaseUrl, `geoaccount_bench_${runId}`);
  const redis = new BenchRedis(s.redisUrl, `bench-${runId}:`);
  const targets = {};
  try {
    await db.create();
    await redis.connect();
    const ctx = { s, app, db, redis, targets, runId, say };
    benchCtx = ctx;
    const common = {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      APP_CREDENTIALS: JSON.stringify([app]),
      // The account service's personal-data key ring (production refuses to start without one).
      PII_KEYS: JSON.stringify([{ id: 'bench', key: randomBytes(32).toString('base64') }]),
    };

    // 1. the framework floor
    // The capped mode compares each service with itself: no floor rows.
    const floor = s.memory ? [] : floorCases(ctx).filter(wanted);
    const account = existsSync(SERVICES.account.main) ? accountCases(ctx).filter(wanted) : [];
    const location = existsSync(SERVICES.location.main) ? locationCases(ctx).filter(wanted) : [];
    // the domain-login case: a private slapd, given to the account service by LDAP_*
    if (account.some((c) => c.id.startsWith('domain-login'))) {
      try {
        ctx.slapd = await startBenchSlapd();
        children.add(ctx.slapd);
      } catch (err) {
        ctx.slapdError = err.message;
        say(`  slapd did not start: ${err.message}`);
      }
    }
    const total = floor.length + account.length + location.length;
    let i = 0;
    for (const c of floor) {
      await runCase(c, ++i, total, targets);
      if (c.id === 'floor-nest') floorRps = rows.at(-1).rps;
    }

    // 2. account: start, seed, its cases, its RSS
    const serviceEnv = { account: { ...common, ...accountEnv(ctx) }, location: { ...common, ...locationEnv(ctx) } };
    ctx.serviceEnv = serviceEnv;
    const uncappedTargets = {};
    if (s.memory) {
      for (const name of Object.keys(SERVICES)) {
        const runtime = cappedRuntime(name, serviceEnv[name]);
        const env = Object.entries(runtime.env)
          .filter(([k]) => !(k in serviceEnv[name]))
          .map(([k, v]) => `${k}=${v}`);
        say(`  ${name} capped: limit ${runtime.limit}; node ${runtime.nodeArgs.join(' ')}; ${env.join(' ')}`);
        if (runtime.overridden.length > 0)
          say(`    the bench's own: ${runtime.overridden.map((k) => `${k}=${serviceEnv[name][k]}`).join(' ')}`);
      }
      say("  the limits are not enforced (no memory cgroup of the bench's own): peak RSS is reported against them");
    }
    for (const [name, cases] of [
      ['account', account],
      ['location', location],
    ]) {
      if (!existsSync(SERVICES[name].main)) {
        rows.push({ id: `${name}-missing`, title: `${name} service`, notes: `not built (${SERVICES[name].main} missing)`, met: false });
        continue;
      }
      if (cases.length === 0 && s.cases.length > 0) continue;
      say(`starting ${name} ...`);
      let child;
      try {
        // The capped mode: today's instance first (it migrates the database), then the capped one.
        if (s.memory)
          uncappedTargets[name] = await start(`${name}-uncapped`, SERVICES[name].main, { env: serviceEnv[name], timeoutMs: 120_000 });
        child = await start(name, SERVICES[name].main, { env: serviceEnv[name], profile: s.profile, timeoutMs: 120_000, capped: s.memory });
      } catch (err) {
        await stop(uncappedTargets[name]);
        say(`  ${name} did not start: ${err.message}`);
        rows.push({
          id: `${name}-start`,
          title: `${name} service`,
          notes: `did not start: ${err.message.split('\n')[0]}`,
          met: false,
          error: err.message,
        });
        for (const c of cases) {
          const targetText = targetLabel(c.target);
          rows.push({
            id: c.id,
            title: c.title,
            notes: `not measured: ${name} did not start`,
            met: c.target ? false : undefined,
            targetText,
          });
        }
        i += cases.length;
        continue;
      }
      targets[name] = child;
      const startRss = child.rssMb();
      say(`  ${name} ready in ${Math.round(child.readyMs)} ms (first start${name === 'account' ? ', migrations included' : ''})`);
      if (name === 'account' && cases.length > 0) await seedAccount(ctx);
      for (const c of cases) {
        if (s.memory) await runMemoryCase(c, ++i, total, targets, uncappedTargets);
        else await runCase(c, ++i, total, targets);
      }
      const rss = child.rssMb();
      if (s.memory) {
        const peak = child.memory.sampler.highWater();
        rows.push({
          id: `${name}-peak`,
          title: `${name}: the whole run`,
          memory: true,
          peakRssMb: peak,
          limitMiB: child.memory.limitMiB,
          limit: child.memory.limit,
          shareOfLimit: peak / child.memory.limitMiB,
          uncappedPeakRssMb: uncappedTargets[name].memory.sampler.highWater(),
          met: !child.exited && peak / child.memory.limitMiB <= MEMORY_GOAL.maxShareOfLimit,
          notes: child.exited
            ? `the capped service exited during the run:\n${child.describe()}`
            : `VmHWM of the capped instance over all its cases; ${Math.round(startRss)} MB when ready, ${Math.round(rss)} MB after`,
        });
        say(`  ${name}: peak RSS ${Math.round(peak)} MB of ${child.memory.limit} (${Math.round((peak / child.memory.limitMiB) * 100)}%)`);
        await stop(uncappedTargets[name]);
        delete uncappedTargets[name];
      } else
        rows.push({
          id: `${name}-rss`,
          title: `RSS after the run, ${name}`,
          value: `${Math.round(rss)} MB`,
          rssMb: rss,
          targetText: '< 200 MB',
          met: rss < 200,
          score: 200 / rss,
          rssAtReadyMb: startRss,
          notes: child.exited
            ? `the service exited during the run:\n${child.describe()}`
            : `VmRSS of pid ${child.pid} after ${cases.length} cases; ${Math.round(startRss)} MB when ready`,
        });
      say(`  ${name} RSS after its cases: ${Math.round(rss)} MB`);
      await stop(child);
      delete targets[name];
    }

    // 3. cold starts: spawn to the first 200 on /health/live, with the database already migrated
    for (const name of Object.keys(SERVICES)) {
      if (s.memory) break;
      if (!existsSync(SERVICES[name].main) || (s.cases.length > 0 && !wanted({ id: `cold-${name}`, title: `cold start ${name}` })))
        continue;
      const times = [];
      try {
        for (let k = 0; k < s.coldStarts; k++) {
          const child = await start(`${name}-cold`, SERVICES[name].main, { env: serviceEnv[name], timeoutMs: 60_000 });
          times.push(child.readyMs);
          await stop(child);
        }
      } catch (err) {
        rows.push({
          id: `cold-${name}`,
          title: `cold start to ready, ${name}`,
          targetText: '< 2 s',
          met: false,
          notes: `did not start: ${err.message.split('\n')[0]}`,
        });
        continue;
      }
      const worst = Math.max(...times);
      rows.push({
        id: `cold-${name}`,
        title: `cold start to ready, ${name}`,
        value: `${Math.round(worst)} ms`,
        coldStartMs: times,
        targetText: '< 2 s (worst run)',
        met: worst < 2000,
        score: 2000 / worst,
        notes: `${times.length} starts: ${times.map((t) => Math.round(t)).join(', ')} ms (spawn to first 200 on /health/live)`,
      });
      say(`cold start ${name}: ${times.map((t) => Math.round(t)).join(', ')} ms`);
    }
  } finally {
    for (const child of [...children]) await stop(child).catch(() => undefined);
    await redis.cleanup().catch((err) => say(`warning: Redis cleanup failed: ${err.message}`));
    await db.drop().catch((err) => say(`warning: could not drop ${db.name}: ${err.message}`));
  }
}

/**
 * The cost targets (tracing) beside their noise floor: the case marked `noiseFloor` compares
 * two instances that differ in nothing measured (untraced vs untraced); the largest of its
 * per-round costs bounds what one round can show. A cost target under that bound is "not
 * shown" whatever the cost says; one above it is met or not by the cost (`cpuCosts`: the mean
 * of the two orders' medians).
 */
function costTableLines(all) {
  const withCost = all.filter((r) => r.cpuCost);
  if (withCost.length === 0) return [];
  const floorRow = withCost.find((r) => r.noiseFloor);
  const noise = floorRow ? Math.max(...floorRow.cpuCost.rounds.map(Math.abs)) : undefined;
  const lines = [
    '',
    `CPU cost per request over the baseline, per alternating round (noise floor: ${noise === undefined ? 'not measured' : `±${pct(noise).slice(1)}, the largest round of "${floorRow.title}"`})`,
    'case                                                    | cost    | rounds (even: service first; odd: baseline first) | target  | verdict',
    '--------------------------------------------------------|---------|---------------------------------------------------|---------|--------',
  ];
  for (const r of withCost) {
    const target = r.costTarget;
    let verdict = '-';
    if (r.noiseFloor) verdict = 'noise floor';
    else if (target !== undefined && noise !== undefined && noise > target)
      verdict = r.cpuCost.figure <= target ? 'not shown (within the noise)' : 'NOT met';
    else if (target !== undefined) verdict = r.cpuCost.figure <= target ? 'met' : 'NOT met';
    lines.push(
      `${r.title.padEnd(56)}| ${pct(r.cpuCost.figure).padStart(7)} | ${r.cpuCost.rounds.map(pct).join(', ').padEnd(50)}| ${(target === undefined ? '-' : `<= ${pct(target).slice(1)}`).padEnd(8)}| ${verdict}`,
    );
  }
  // Where the extra time goes, by kind of thread: a CPU profile samples the main thread only.
  const threads = withCost.filter((r) => r.result?.threadUsPerRequest && r.baseline?.threadUsPerRequest);
  if (threads.length > 0) {
    const cell = (r, k) => `${r.result.threadUsPerRequest[k].toFixed(1)} / ${r.baseline.threadUsPerRequest[k].toFixed(1)}`.padEnd(14);
    lines.push(
      '',
      'CPU us per request by thread, service / baseline (median of the rounds): main = JavaScript and the event loop; V8 = its workers (GC marking and scavenges, compiler); pool = libuv',
      'case                                                    | main          | main, kernel  | V8            | pool          | other',
      '--------------------------------------------------------|---------------|---------------|---------------|---------------|--------------',
    );
    for (const r of threads)
      lines.push(
        `${r.title.padEnd(56)}| ${cell(r, 'main')}| ${cell(r, 'mainSystem')}| ${cell(r, 'v8')}| ${cell(r, 'pool')}| ${cell(r, 'other')}`,
      );
  }
  lines.push(...counterLines(withCost));
  return lines;
}

/**
 * BENCH_PERF_STAT and BENCH_CACHESIM: the counted events per request of each cost row's main thread, service /
 * baseline (median of the rounds), and the service's count over the baseline's; "not counted"
 * where the host has no such counter.
 */
function counterLines(withCost) {
  const rows = withCost.filter((r) => r.result?.counters && r.baseline?.counters);
  if (rows.length === 0) return [];
  const events = Object.keys(rows[0].result.counters);
  const amount = (n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3));
  const cell = (r, e) => {
    const [own, base] = [r.result.counters[e], r.baseline.counters[e]];
    if (!Number.isFinite(own) || !Number.isFinite(base)) return 'not counted';
    return `${amount(own)} / ${amount(base)} (${base > 0 ? pct((own - base) / base) : '-'})`;
  };
  const cells = rows.map((r) => events.map((e) => cell(r, e)));
  const widths = events.map((e, i) => Math.max(e.length, ...cells.map((c) => c[i].length)));
  return [
    '',
    'Events per request, main thread, service / baseline (median of the rounds; perf stat, or the simulated CPU of BENCH_CACHESIM)',
    `${'case'.padEnd(56)}| ${events.map((e, i) => e.padEnd(widths[i])).join(' | ')}`,
    `${'-'.repeat(56)}|${widths.map((w) => '-'.repeat(w + 2)).join('|')}`,
    ...rows.map((r, j) => `${r.title.padEnd(56)}| ${cells[j].map((c, i) => c.padEnd(widths[i])).join(' | ')}`),
  ];
}

let failed = false;
try {
  await runAll();
} catch (err) {
  failed = true;
  say(`bench failed: ${err.stack ?? err}`);
}

say('');
for (const line of s.memory ? memoryTableLines(rows) : tableLines(rows)) say(line);
for (const line of costTableLines(rows)) say(line);
say('');
say(
  `${m.cores} x ${m.cpu}, ${m.memoryGb} GB, Node ${m.node}; -c ${s.connections}, ${s.duration}s per target; ` +
    'account signed with a timestamp of the run start (SIGNATURE_MAX_SKEW_SECONDS=86400 on the bench instance); rate limits off; LOG_LEVEL=warn.',
);
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  JSON.stringify({ runId, startedAt, machine: m, settings: { ...s, databaseUrl: undefined, redisUrl: undefined }, rows }, null, 2),
);
say(`results: ${file.replace(`${root}/`, '')}`);
// The chart of the same rows (docs/performance.md shows the latest full run's); the capped
// mode's rows are a table of their own, without a chart.
if (!s.memory) {
  const chart = file.replace(/\.json$/, '.svg');
  writeFileSync(chart, chartSvg(rows, { runId, startedAt, machine: m }));
  say(`chart: ${chart.replace(`${root}/`, '')}`);
}
process.exit(failed ? 1 : 0);
