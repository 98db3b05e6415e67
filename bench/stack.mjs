#!/usr/bin/env node
// `node bench/stack.mjs`: what each layer of the services' HTTP stack costs per request, by
// adding them one at a time to a hello-world NestJS app (bench/stack/stack-app.mjs) and
// measuring req/s and the server's CPU time per request. Same settings as `pnpm bench`
// (BENCH_CONNECTIONS, BENCH_DURATION, BENCH_WARMUP, BENCH_QUICK).
import { join } from 'node:path';
import { benchDir, settings } from './lib/common.mjs';
import { drive } from './lib/load.mjs';
import { preflight } from './lib/preflight.mjs';
import { startProcess } from './lib/proc.mjs';

const s = settings();
const steps = ['', 'defaults', 'observer', 'headers'];
const spec = { path: '/hello?name=bench', expectBody: ['"message":"hello"'] };
const rows = [];
let layers = [];
for (const step of steps) {
  if (step) layers = [...layers, step];
  const child = await startProcess('stack', join(benchDir, 'stack/stack-app.mjs'), {
    env: { BENCH_LAYERS: layers.join(',') },
    readyPath: '/hello',
  });
  try {
    await preflight(child.url, spec, 'stack');
    let cpu0;
    let cpu1;
    const r = await drive(
      { url: child.url, connections: s.connections, duration: s.duration, warmup: s.warmup, ...spec },
      { onMeasureStart: () => (cpu0 = child.cpuMs()), onMeasureEnd: () => (cpu1 = child.cpuMs()) },
    );
    const us = ((cpu1 - cpu0) * 1000) / r.total;
    rows.push({
      layers: step ? `+ ${step}` : 'Nest hello (no layer)',
      rps: r.requestsPerSecond,
      p99: r.latency.p99,
      us,
      bad: r.non2xx + r.errors + r.mismatches,
    });
    const prev = rows.at(-2);
    console.log(
      `${rows.at(-1).layers.padEnd(24)} ${String(Math.round(r.requestsPerSecond)).padStart(7)} req/s  p99 ${String(r.latency.p99).padStart(5)} ms  ` +
        `${String(Math.round(us)).padStart(5)} us/req${prev ? `  (${us - prev.us >= 0 ? '+' : ''}${Math.round(us - prev.us)} us)` : ''}${rows.at(-1).bad ? `  ${rows.at(-1).bad} bad answers` : ''}`,
    );
  } finally {
    await child.stop();
  }
}
