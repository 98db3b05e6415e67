// Drives a target with autocannon in a separate process (bench/load/load-process.mjs).
import { execFileSync, fork } from 'node:child_process';
import { join } from 'node:path';
import { benchDir, nodeBin } from './common.mjs';

/**
 * One load generator process against `spec.url`: `warm` settles when its warm-up is done, `go()`
 * starts the measured window, `result` settles with its figures.
 */
function startLoad(spec) {
  const child = fork(join(benchDir, 'load', 'load-process.mjs'), [], {
    execPath: nodeBin,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let onWarm;
  let onResult;
  let settled = false;
  const warm = new Promise((resolve, reject) => (onWarm = { resolve, reject }));
  const result = new Promise((resolve, reject) => (onResult = { resolve, reject }));
  // Whoever waits on one of them hears the failure; the other is not left unhandled.
  warm.catch(() => undefined);
  result.catch(() => undefined);
  const fail = (err) => {
    if (settled) return;
    settled = true;
    child.kill('SIGKILL');
    const error = err instanceof Error ? err : new Error(String(err));
    onWarm.reject(error);
    onResult.reject(error);
  };
  child.on('error', fail);
  child.on('exit', (code) => fail(new Error(`load generator exited with ${code} before reporting`)));
  child.on('message', (msg) => {
    if (msg.phase === 'warm') onWarm.resolve();
    else if (msg.result) {
      settled = true;
      onResult.resolve(msg.result);
    } else if (msg.error) fail(new Error(`load generator: ${msg.error}`));
  });
  // BENCH_COST_PIN: the generator on CPUs of its own, away from the measured process.
  if (spec.cpus !== undefined && child.pid !== undefined)
    execFileSync('taskset', ['-a', '-p', '-c', spec.cpus, String(child.pid)], { stdio: 'ignore' });
  child.send({ spec });
  return { warm, result, go: () => child.send({ go: true }), stop: () => fail(new Error('stopped')) };
}

/**
 * Runs the warm-up then the measured window against `spec.url`.
 * `onMeasureStart` / `onMeasureEnd` run around the measured window (e.g. CPU profiling).
 */
export async function drive(spec, { onMeasureStart, onMeasureEnd } = {}) {
  const [result] = await driveTogether([{ spec, onMeasureStart, onMeasureEnd }]);
  return result;
}

/**
 * Drives several targets at once, each with a load generator of its own: every warm-up first,
 * then the measured windows together, so that the targets share the same machine over the same
 * seconds (the CPU cost rows: whatever else the host does hits both sides of a pair alike).
 */
export async function driveTogether(sides) {
  const loads = sides.map((side) => startLoad(side.spec));
  try {
    await Promise.all(loads.map((load) => load.warm));
    for (const side of sides) await side.onMeasureStart?.();
    for (const load of loads) load.go();
    return await Promise.all(
      loads.map((load, i) =>
        load.result.then(async (result) => {
          await sides[i].onMeasureEnd?.();
          return result;
        }),
      ),
    );
  } catch (err) {
    for (const load of loads) load.stop();
    throw err;
  }
}
