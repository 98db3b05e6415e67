// Timing of micro-benchmarks (bench/fast-path.mjs, bench/tracing-recorder.mjs): µs per call of
// `fn`, the median of 5 rounds of ~300 ms, run in batches of `batch` calls between clock reads.
export function time(fn, batch = 1000) {
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    let n = 0;
    const start = process.hrtime.bigint();
    const end = start + 300_000_000n;
    let now = start;
    while (now < end) {
      for (let i = 0; i < batch; i++) fn();
      n += batch;
      now = process.hrtime.bigint();
    }
    rounds.push(Number(now - start) / 1000 / n);
  }
  rounds.sort((a, b) => a - b);
  return rounds[2];
}
