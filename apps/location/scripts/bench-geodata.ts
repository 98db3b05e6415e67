/**
 * Measures the offline geocoder: asset load time, memory, and reverse / forward lookup times
 * over 100,000 random points in mainland China and 100,000 name queries.
 * Run: `npx -y pnpm@10 --filter @geoaccount/location bench:geodata`.
 */
import { createOfflineGeocoder } from '../src/geocoder/offline';

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function report(label: string, times: Float64Array): void {
  const sorted = Float64Array.from(times).sort();
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(
    `${label}: n=${sorted.length} mean ${us(mean)}, p50 ${us(percentile(sorted, 50))}, p99 ${us(percentile(sorted, 99))}, max ${us(sorted[sorted.length - 1])}`,
  );
}

/** RSS after a full collection (the script runs with --expose-gc). */
function settledRss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

async function main(): Promise<void> {
  const rssBefore = settledRss();
  const started = performance.now();
  const geocoder = await createOfflineGeocoder();
  const loadMs = performance.now() - started;
  const rss = settledRss();
  console.log(`load ${loadMs.toFixed(0)} ms; RSS ${(rss / 1e6).toFixed(0)} MB (${(rssBefore / 1e6).toFixed(0)} MB before loading)`);

  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const n = 100_000;
  const points: [number, number][] = [];
  while (points.length < n) {
    const lon = 73.5 + random() * 61.5;
    const lat = 18 + random() * 35.5;
    const place = geocoder.reverseSync(lon, lat);
    if (place?.standardCode) points.push([lon, lat]);
  }
  const reverse = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    geocoder.reverseSync(points[i][0], points[i][1]);
    reverse[i] = performance.now() - t;
  }
  report('reverse, mainland points', reverse);

  const abroad = new Float64Array(10_000);
  for (let i = 0; i < abroad.length; i++) {
    const lon = -180 + random() * 360;
    const lat = -60 + random() * 130;
    const t = performance.now();
    geocoder.reverseSync(lon, lat);
    abroad[i] = performance.now() - t;
  }
  report('reverse, points anywhere (mostly abroad / at sea)', abroad);

  const counties = geocoder.divisions.counties.filter((c) => c.prefecture && !c.code.startsWith('71') && !c.code.startsWith('8'));
  const forward = new Float64Array(n);
  let found = 0;
  for (let i = 0; i < n; i++) {
    const c = counties[Math.floor(random() * counties.length)];
    const t = performance.now();
    const place = geocoder.forwardSync(c.prefecture!.name, `${c.name}人民路${i % 500}号`);
    forward[i] = performance.now() - t;
    if (place?.standardCode === c.code) found++;
  }
  report('forward, prefecture + county + street', forward);
  console.log(`forward found the county named in ${((100 * found) / n).toFixed(2)}% of the queries`);
  console.log(`RSS after the runs ${(settledRss() / 1e6).toFixed(0)} MB`);
}

void main();
