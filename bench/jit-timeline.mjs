#!/usr/bin/env node
// `node bench/jit-timeline.mjs <log> [from seconds] [bucket seconds]`: what V8 compiled,
// deoptimised and collected in each process, per bucket of its life, from the children's output of
//   BENCH_VERBOSE=1 BENCH_NODE_ARGS='--trace-opt --trace-deopt --trace-gc --require ./bench/lib/seconds-mark.cjs' pnpm bench 2> <log>
// (each line `[<process>] …`; `mark <s>` lines from the preload give the time). With a start
// second, it also names the functions compiled from then on in each process (the measured window:
// the warm-up plus a few seconds of start). "deoptimised" counts V8's lines, not functions: a
// bailout, or code marked for deoptimisation (a lazy deoptimisation can print both). Read it
// against the process's untraced pair, not alone. docs/performance.md ("The seventeenth round")
// shows what it found.
import { readFileSync } from 'node:fs';

const [path, fromArg, bucketArg] = process.argv.slice(2);
if (!path) {
  console.error('usage: node bench/jit-timeline.mjs <log> [from seconds] [bucket seconds, default 10]');
  process.exit(2);
}
const from = fromArg === undefined ? undefined : Number(fromArg);
const bucket = Number(bucketArg ?? 10);

/** Per process: bucket start → event kind → count; and the functions compiled from `from` on. */
const processes = new Map();
const now = new Map();
for (const line of readFileSync(path, 'utf8').split('\n')) {
  const m = /^\[([\w.-]+)\] (.*)$/.exec(line);
  if (!m) continue;
  const [, name, text] = m;
  const mark = /^mark (\d+)$/.exec(text);
  if (mark) {
    now.set(name, Number(mark[1]));
    continue;
  }
  const kind = eventOf(text);
  if (!kind) continue;
  let p = processes.get(name);
  if (!p) processes.set(name, (p = { buckets: new Map(), compiled: new Map() }));
  const t = now.get(name) ?? 0;
  const b = Math.floor(t / bucket) * bucket;
  if (!p.buckets.has(b)) p.buckets.set(b, new Map());
  const counts = p.buckets.get(b);
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
  if (from !== undefined && t >= from && kind.startsWith('compiled')) {
    const fn = functionName(text);
    const key = `${kind.slice('compiled, '.length)} ${fn}`;
    p.compiled.set(key, (p.compiled.get(key) ?? 0) + 1);
  }
}

/** The function a trace line is about: `<JSFunction name (sfi = …)>`, found without a regular expression that could backtrack. */
function functionName(text) {
  const at = text.indexOf('<JSFunction ');
  if (at < 0) return '?';
  const end = text.indexOf(' (sfi', at);
  return end < 0 ? '?' : text.slice(at + '<JSFunction '.length, end) || '(anonymous)';
}

function eventOf(text) {
  if (text.startsWith('[completed compiling')) return text.includes('MAGLEV') ? 'compiled, Maglev' : 'compiled, TurboFan';
  if (text.startsWith('[bailout') || /deoptimiz/i.test(text)) return 'deoptimised';
  if (text.includes('Scavenge')) return 'scavenges';
  if (text.includes('Mark-Compact')) return 'mark-compacts';
  return undefined;
}

const KINDS = ['compiled, Maglev', 'compiled, TurboFan', 'deoptimised', 'scavenges', 'mark-compacts'];
for (const [name, p] of [...processes].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`\n${name}`);
  console.log(`seconds   | ${KINDS.map((k) => k.padStart(18)).join(' | ')}`);
  for (const b of [...p.buckets.keys()].sort((x, y) => x - y)) {
    const counts = p.buckets.get(b);
    console.log(`${`${b}-${b + bucket}`.padEnd(10)}| ${KINDS.map((k) => String(counts.get(k) ?? 0).padStart(18)).join(' | ')}`);
  }
  if (from !== undefined) {
    const list = [...p.compiled].sort((a, b) => b[1] - a[1]);
    console.log(`compiled from ${from} s on: ${list.length === 0 ? 'nothing' : list.map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ')}`);
  }
}
