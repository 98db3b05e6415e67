// Preloaded (`node --require`) into every measured process. Counts the statements sent to
// PostgreSQL (`pg`'s `Client#query`, which TypeORM's query runner and `pg.Pool#query` both
// end in) and the commands sent to Redis (ioredis's `sendCommand`), so that the harness can
// print statements per request beside CPU per request. The harness's IPC message
// 'statements' answers `statements <pg> <redis>` on stderr; the first one installs the counters
// (the drivers are loaded by then: the process has answered its readiness probe).
'use strict';

if (process.channel) {
  process.channel.unref();
  let pg = 0;
  let redis = 0;
  let installed = false;
  const count = (proto, name, bump) => {
    const original = proto?.[name];
    if (typeof original !== 'function' || original.benchCounted) return;
    const counted = function (...args) {
      bump();
      return original.apply(this, args);
    };
    counted.benchCounted = true;
    proto[name] = counted;
  };
  const install = () => {
    installed = true;
    for (const [file, mod] of Object.entries(require.cache)) {
      if (/[/\\]pg[/\\]lib[/\\]client\.js$/.test(file)) count(mod.exports?.prototype, 'query', () => pg++);
      if (/[/\\]ioredis[/\\]built[/\\]Redis\.js$/.test(file))
        count((mod.exports?.default ?? mod.exports)?.prototype, 'sendCommand', () => redis++);
    }
  };
  process.on('message', (msg) => {
    if (msg !== 'statements') return;
    if (!installed) install();
    process.stderr.write(`statements ${pg} ${redis}\n`);
  });
}
