// The one table a run prints, and the JSON written next to it.
import { cpus, totalmem } from 'node:os';
import { readFileSync } from 'node:fs';

export function machine() {
  const list = cpus();
  let kernel = '';
  try {
    kernel = readFileSync('/proc/version', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    // not Linux
  }
  return {
    cpu: list[0]?.model?.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel,
  };
}

const fmt = {
  rps: (v) => (v === undefined || v === null ? '-' : v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(1)),
  ms: (v) => (v === undefined || v === null ? '-' : v >= 100 ? String(Math.round(v)) : v >= 10 ? v.toFixed(1) : v.toFixed(2)),
  per: (v) => (v === undefined || v === null || !Number.isFinite(v) ? '-' : v.toFixed(2)),
  us: (v) => (v === undefined || v === null || !Number.isFinite(v) ? '-' : String(Math.round(v))),
  // Rounded down, so that a ratio shown at a target's value meets it (0.598 is 0.59, not 0.60).
  ratio: (v) => (v === undefined || v === null || !Number.isFinite(v) ? '-' : (Math.floor(v * 100 + 1e-9) / 100).toFixed(2)),
};

/** One row per case: the printed cells and the verdict. */
export function tableLines(rows) {
  const header = [
    'case',
    'req/s',
    'p50 ms',
    'p99 ms',
    'baseline req/s',
    'ratio',
    'x Nest floor',
    'target',
    'met?',
    'CPU us/req svc/base',
    'SQL/req svc/base',
    'notes',
  ];
  const cells = rows.map((r) => [
    r.title,
    r.value !== undefined ? r.value : fmt.rps(r.rps),
    fmt.ms(r.p50),
    fmt.ms(r.p99),
    fmt.rps(r.baselineRps),
    fmt.ratio(r.ratio),
    fmt.ratio(r.floorRatio),
    r.targetText ?? '-',
    r.met === undefined ? '-' : r.met ? 'yes' : 'NO',
    r.cpuUs === undefined ? '-' : `${fmt.us(r.cpuUs)} / ${fmt.us(r.baselineCpuUs)}`,
    r.pg === undefined ? '-' : `${fmt.per(r.pg)} / ${fmt.per(r.baselinePg)}`,
    r.notes ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => String(c[i]).length)));
  const line = (c) =>
    c.map((v, i) => (i === 0 || i === c.length - 1 || i === 7 ? String(v).padEnd(widths[i]) : String(v).padStart(widths[i]))).join(' | ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)];
}

/**
 * The table of the capped mode (BENCH_MEMORY=manifest): per case, the capped side's requests
 * and failures, its throughput against the uncapped side's, and its peak RSS against the limit.
 */
export function memoryTableLines(rows) {
  const header = [
    'case',
    'requests',
    'failed',
    'capped req/s',
    'uncapped req/s',
    'ratio',
    'peak RSS MB',
    '% of limit',
    'uncapped peak MB',
    'CPU us/req capped/uncapped',
    'met?',
    'notes',
  ];
  const mb = (v) => (v === undefined || !Number.isFinite(v) ? '-' : String(Math.round(v)));
  const cells = rows.map((r) => [
    r.title,
    r.requests === undefined ? '-' : r.requests.toLocaleString('en-US'),
    r.failed === undefined ? '-' : String(r.failed),
    fmt.rps(r.rps),
    fmt.rps(r.uncappedRps),
    fmt.ratio(r.ratio),
    mb(r.peakRssMb),
    r.shareOfLimit === undefined || !Number.isFinite(r.shareOfLimit) ? '-' : `${Math.round(r.shareOfLimit * 100)}% of ${r.limit}`,
    mb(r.uncappedPeakRssMb),
    r.cpuUs === undefined ? '-' : `${fmt.us(r.cpuUs)} / ${fmt.us(r.uncappedCpuUs)}`,
    r.met === undefined ? '-' : r.met ? 'yes' : 'NO',
    r.notes ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => String(c[i]).length)));
  const line = (c) =>
    c.map((v, i) => (i === 0 || i === c.length - 1 ? String(v).padEnd(widths[i]) : String(v).padStart(widths[i]))).join(' | ');
  return [
    line(header),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...cells.map(line),
    '',
    'met: no failed request, peak RSS (VmRSS sampled every 100 ms over the case, warm-ups included) <= 80% of the limit, ratio >= 0.9',
  ];
}
