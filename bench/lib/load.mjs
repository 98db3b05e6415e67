// Drives one target with autocannon in a separate process (bench/load/load-process.mjs).
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { benchDir, nodeBin } from './common.mjs';

/**
 * Runs the warm-up then the measured window against `spec.url`.
 * `onMeasureStart` / `onMeasureEnd` run around the measured window (e.g. CPU profiling).
 */
export function drive(spec, { onMeasureStart, onMeasureEnd } = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(join(benchDir, 'load', 'load-process.mjs'), [], {
      execPath: nodeBin,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let settled = false;
    const fail = (err) => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`load generator exited with ${code} before reporting`)));
    child.on('message', async (msg) => {
      try {
        if (msg.phase === 'warm') {
          await onMeasureStart?.();
          child.send({ go: true });
        } else if (msg.result) {
          settled = true;
          Promise.resolve(onMeasureEnd?.()).then(() => resolve(msg.result), reject);
        } else if (msg.error) {
          fail(new Error(`load generator: ${msg.error}`));
        }
      } catch (err) {
        fail(err);
      }
    });
    child.send({ spec });
  });
}
