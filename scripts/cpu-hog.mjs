#!/usr/bin/env node
// Keeps N CPU-bound processes busy until it is stopped (Ctrl-C, SIGTERM): the load to run the
// test suite beside, to show that no test depends on the machine's speed.
//   node scripts/cpu-hog.mjs [N=2]
//   node scripts/cpu-hog.mjs 2 & HOG=$!; pnpm test; kill $HOG
import { fork } from 'node:child_process';

if (process.argv[2] === '--spin') {
  let x = 0;
  for (;;) x = (x * 1103515245 + 12345) % 2147483648;
}

const n = Number(process.argv[2] ?? 2);
if (!Number.isInteger(n) || n < 1) {
  console.error('usage: node scripts/cpu-hog.mjs [number of busy processes, default 2]');
  process.exit(2);
}
const children = Array.from({ length: n }, () => fork(new URL(import.meta.url).pathname, ['--spin'], { stdio: 'ignore' }));
console.log(
  `cpu-hog: ${n} busy processes (${children.map((c) => c.pid).join(', ')}); pid ${process.pid}, stop with kill ${process.pid} or Ctrl-C`,
);
const stop = () => {
  for (const child of children) child.kill('SIGKILL');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.on('SIGHUP', stop);
setInterval(() => undefined, 1 << 30);
