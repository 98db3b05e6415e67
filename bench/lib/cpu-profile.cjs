// Preloaded (`node --require`) into a measured process when BENCH_PROFILE=1. The harness's
// IPC message 'cpu-profile' starts the V8 CPU profiler; the next one stops it and writes
// `<BENCH_CPU_PROFILE_DIR>/<pid>-<n>.cpuprofile`, then prints `cpu-profile-written <file>` on
// stderr. Unlike `--cpu-prof`, this profiles only the measured window and works whatever way
// the process ends. (Not a signal: NestJS's shutdown hooks stop the app on SIGUSR2.)
'use strict';
const inspector = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir && process.channel) {
  mkdirSync(dir, { recursive: true });
  // The channel must not keep the process alive, nor reach the application.
  process.channel.unref();
  const session = new inspector.Session();
  session.connect();
  let running = false;
  let n = 0;
  const start = () => {
    running = true;
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')),
    );
  };
  // BENCH_CPU_PROFILE_FROM_START=1: from the first line of the application (start-up profiles).
  if (process.env.BENCH_CPU_PROFILE_FROM_START === '1') start();
  process.on('message', (msg) => {
    if (msg !== 'cpu-profile') return;
    if (!running) {
      start();
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, res) => {
      const file = join(dir, `${process.pid}-${++n}.cpuprofile`);
      if (!err) writeFileSync(file, JSON.stringify(res.profile));
      process.stderr.write(`cpu-profile-written ${err ? 'ERROR ' + err.message : file}\n`);
    });
  });
}
