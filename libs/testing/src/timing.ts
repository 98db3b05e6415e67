/*
 * Time in tests. A test asserts a behaviour ("the server closes the slow connection, and not
 * before its limit"), never a speed: on a loaded machine (the suite's own servers, builds and
 * workers, or anything else running beside it) every wall-clock figure can come out seconds
 * late. Upper bounds are generous, or measured against a reference taken in the same test;
 * where the work itself is the question, CPU time is counted instead of wall time. The
 * figures are printed; speed belongs to the benchmarks (bench/).
 */

/** How late past its limit a timed behaviour may still be on a loaded machine. */
export const LATE_MS = 10_000;

/** Prints one measured figure of a test (not captured by jest, so it shows in the run's output). */
export function printFigure(what: string, value: number | string, unit = 'ms'): void {
  const shown = typeof value === 'number' ? String(Math.round(value * 10) / 10) : value;
  process.stdout.write(`  [figure] ${what}: ${shown}${unit ? ` ${unit}` : ''}\n`);
}

/** CPU time `run` cost this process (every thread), in milliseconds, beside its result: not stretched by other processes' load. */
export async function cpuTimed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const before = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(before);
  return [result, (used.user + used.system) / 1000];
}

/** True where the running Node.js can tell the CPU time of the main thread alone (Node.js 23.9+). */
export const canMeasureMainThread = typeof (process as { threadCpuUsage?: unknown }).threadCpuUsage === 'function';

/**
 * The CPU time `run` cost on the main thread (the event loop) and in the whole process, in
 * milliseconds. Work that runs off the event loop (the thread pool) shows in `process` only;
 * work that blocks the loop shows in both. Unlike counting timer ticks, this does not depend
 * on how busy the machine is.
 */
export async function mainThreadShare<T>(run: () => Promise<T>): Promise<{ result: T; mainMs: number; processMs: number }> {
  const threadCpuUsage = (process as unknown as { threadCpuUsage: (since?: NodeJS.CpuUsage) => NodeJS.CpuUsage }).threadCpuUsage;
  const thread = threadCpuUsage();
  const whole = process.cpuUsage();
  const result = await run();
  const t = threadCpuUsage(thread);
  const w = process.cpuUsage(whole);
  return { result, mainMs: (t.user + t.system) / 1000, processMs: (w.user + w.system) / 1000 };
}
