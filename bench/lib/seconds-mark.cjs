// Preloaded by `BENCH_NODE_ARGS='--require ./bench/lib/seconds-mark.cjs …'`: a line `mark <s>` on
// stdout every 5 s of the process's life, so that V8's trace lines (`--trace-opt`, `--trace-deopt`,
// `--trace-gc`) echoed by BENCH_VERBOSE=1 can be placed in time (`node bench/jit-timeline.mjs`).
const started = Date.now();
setInterval(() => process.stdout.write(`mark ${Math.round((Date.now() - started) / 1000)}\n`), 5000).unref();
