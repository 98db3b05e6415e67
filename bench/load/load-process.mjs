// The load generator, a process of its own (forked by the harness, so it never shares a CPU
// thread with what it measures). Protocol over IPC: it receives { spec }, runs the warm-up,
// sends { phase: 'warm' }, waits for { go: true }, runs the measured window and sends
// { result } with the figures the harness reports.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const here = fileURLToPath(new URL('.', import.meta.url));

function run(spec, duration) {
  const workers = spec.workers > 1 ? spec.workers : undefined;
  const hooks = workers ? null : require('./hooks.cjs');
  const request = { method: spec.method ?? 'GET', path: spec.path };
  if (spec.body !== undefined) request.body = spec.body;
  if (spec.headers) request.headers = spec.headers;
  if (spec.generator) request.setupRequest = workers ? join(here, 'setup-request.cjs') : hooks.setupRequest;
  const opts = {
    url: spec.url,
    connections: spec.connections,
    duration,
    workers,
    requests: [request],
    timeout: spec.timeoutSeconds ?? 30,
  };
  // A fixed rate (the CPU cost rows with BENCH_COST_RATE): both sides of a pair get the same load.
  if (spec.overallRate > 0) opts.overallRate = spec.overallRate;
  if (spec.expectBody?.length) opts.verifyBody = workers ? join(here, 'verify-body.cjs') : hooks.verifyBody;
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

function summarise(r) {
  const statusCodes = r.statusCodeStats ?? {};
  return {
    requestsPerSecond: r.requests.average,
    total: r.requests.total,
    latency: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: r.latency.average },
    throughputBytesPerSecond: r.throughput.average,
    duration: r.duration,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    mismatches: r.mismatches ?? 0,
    statusCodes: Object.fromEntries(Object.entries(statusCodes).map(([k, v]) => [k, v.count])),
  };
}

process.once('message', async ({ spec }) => {
  process.env.BENCH_LOAD_SPEC = JSON.stringify(spec);
  try {
    if (spec.warmup > 0) {
      process.env.BENCH_LOAD_SPEC = JSON.stringify({ ...spec, phase: 0 });
      const warm = await run(spec, spec.warmup);
      // Requests still in flight when the warm-up window closed are abandoned by the client
      // but still worked on by the server: let them drain before the measured window.
      const settleMs = warm.requests.total === 0 ? 5000 : Math.min(5000, Math.max(200, 2 * warm.latency.p99));
      await new Promise((r) => setTimeout(r, settleMs));
    }
    process.send({ phase: 'warm' });
    await new Promise((resolve) => process.once('message', resolve));
    process.env.BENCH_LOAD_SPEC = JSON.stringify({ ...spec, phase: 1 });
    const result = await run(spec, spec.duration);
    process.send({ result: summarise(result) }, () => process.exit(0));
  } catch (err) {
    process.send({ error: String(err?.stack ?? err) }, () => process.exit(1));
  }
});
