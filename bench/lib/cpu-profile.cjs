// Preloaded (`node --require`) into a measured process when BENCH_PROFILE=1. SIGUSR2 starts the
// V8 CPU profiler; the next SIGUSR2 stops it and writes the profile to the path announced in
// BENCH_CPU_PROFILE_DIR as `<pid>-<n>.cpuprofile`, then prints `cpu-profile-written <file>` on
// stderr. Unlike `--cpu-prof`, this profiles only the measured window and works when the
// process ends by a signal.
'use strict';
const inspector = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const session = new inspector.Session();
  session.connect();
  let running = false;
  let n = 0;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable', () =>
        session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')),
      );
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
