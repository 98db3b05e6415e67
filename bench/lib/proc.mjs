// Child processes of a run: services and baseline servers, started on free ports, with
// their time to ready, their RSS, optional CPU profiles, and a clean stop.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { benchDir, freePort, nodeBin, resultsDir, root, sleep } from './common.mjs';

const CLOCK_TICKS = 100;
const PROFILE_PRELOAD = join(benchDir, 'lib', 'cpu-profile.cjs');
const STATEMENTS_PRELOAD = join(benchDir, 'lib', 'statements.cjs');

/** One GET; resolves with the status code (or 0 when the connection fails). */
export function probe(port, path) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/**
 * A running child: `port`, `pid`, `readyMs` (spawn to first 200 on `readyPath`), the last
 * lines of its output (for error messages), and `stop()`.
 */
class Child {
  constructor(name, proc, port) {
    this.name = name;
    this.proc = proc;
    this.port = port;
    this.pid = proc.pid;
    this.tail = [];
    this.exited = false;
    this.profileWaiters = [];
    this.statementWaiters = [];
    this.exit = new Promise((resolve) => proc.once('exit', (code, signal) => ((this.exited = true), resolve(signal ?? code))));
    for (const stream of [proc.stdout, proc.stderr]) {
      createInterface({ input: stream }).on('line', (raw) => {
        // Without the colours of Nest's logger.
        const line = raw.replace(/\x1b\[[0-9;]*m/g, '');
        this.tail.push(line);
        if (this.tail.length > 40) this.tail.shift();
        const m = /^cpu-profile-written (.*)$/.exec(line);
        if (m) this.profileWaiters.shift()?.(m[1]);
        const st = /^statements (\d+) (\d+)$/.exec(line);
        if (st) this.statementWaiters.shift()?.({ pg: Number(st[1]), redis: Number(st[2]) });
        if (process.env.BENCH_VERBOSE === '1') process.stderr.write(`[${name}] ${line}\n`);
      });
    }
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Resident set size in MB, from /proc/<pid>/status (VmRSS). */
  rssMb() {
    if (this.exited) return NaN;
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  }

  /** CPU time used so far (user + system), in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
  cpuMs() {
    if (this.exited) return NaN;
    const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS);
  }

  /**
   * CPU time so far (ms) by kind of thread, from /proc/<pid>/task/<tid>/stat: `main` (JavaScript
   * and the event loop), `v8` (V8's workers: concurrent marking, parallel scavenges, the
   * optimising compiler), `pool` (libuv's pool: compression, crypto, file I/O) and `other`, and
   * `mainSystem`, the kernel's part of `main` (system calls: the sockets);
   * a thread that has ended since is missing from every figure after it.
   */
  cpuByThread() {
    const by = { main: 0, mainSystem: 0, v8: 0, pool: 0, other: 0 };
    if (this.exited) return by;
    let tids;
    try {
      tids = readdirSync(`/proc/${this.pid}/task`);
    } catch {
      return by;
    }
    for (const tid of tids) {
      let stat;
      try {
        stat = readFileSync(`/proc/${this.pid}/task/${tid}/stat`, 'utf8');
      } catch {
        continue;
      }
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const kind = Number(tid) === this.pid ? 'main' : comm.startsWith('V8') ? 'v8' : comm.startsWith('libuv') ? 'pool' : 'other';
      by[kind] += (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS);
      if (kind === 'main') by.mainSystem += Number(fields[12]) * (1000 / CLOCK_TICKS);
    }
    return by;
  }

  /** Starts the CPU profiler (BENCH_PROFILE=1 processes only). */
  startProfile() {
    this.proc.send('cpu-profile');
  }

  /** Stops the CPU profiler; resolves with the file written. */
  stopProfile() {
    const written = new Promise((resolve) => this.profileWaiters.push(resolve));
    this.proc.send('cpu-profile');
    return written;
  }

  /**
   * Statements sent to PostgreSQL and commands sent to Redis so far ({ pg, redis }), counted
   * by the preload `statements.cjs`; `undefined` when the process does not answer within 2 s.
   */
  statements() {
    if (this.exited || !this.proc.connected) return Promise.resolve(undefined);
    const counted = new Promise((resolve) => this.statementWaiters.push(resolve));
    this.proc.send('statements');
    return Promise.race([counted, sleep(2000).then(() => undefined)]);
  }

  describe() {
    return `${this.name} (pid ${this.pid}) output:\n  ${this.tail.join('\n  ')}`;
  }

  async stop() {
    if (this.exited) return;
    this.proc.kill('SIGTERM');
    const killed = await Promise.race([this.exit.then(() => true), sleep(10_000).then(() => false)]);
    if (!killed) {
      this.proc.kill('SIGKILL');
      await this.exit;
    }
  }
}

/**
 * Spawns `node <script>` with `env` on a free port (given as PORT) and waits until
 * `readyPath` answers 200; `readyMs` is the time from spawn to that first 200.
 */
export async function startProcess(
  name,
  script,
  {
    env = {},
    readyPath = '/health/live',
    timeoutMs = 60_000,
    profile = false,
    args = [],
    nodeArgs: extraNodeArgs = [],
    cpus,
    wrap = [],
  } = {},
) {
  // `wrap` (BENCH_CACHESIM's simulated CPU) runs node tens of times slower: so does its start.
  if (wrap.length > 0) timeoutMs = Math.max(timeoutMs, 900_000);
  const port = await freePort();
  const nodeArgs = [...extraNodeArgs];
  nodeArgs.push('--require', STATEMENTS_PRELOAD);
  if (profile) nodeArgs.push('--require', PROFILE_PRELOAD);
  const childEnv = {
    ...process.env,
    NODE_ENV: 'production',
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    ...(profile ? { BENCH_CPU_PROFILE_DIR: join(resultsDir, 'profiles') } : {}),
  };
  // The harness's own NODE_OPTIONS are not the child's; a child given some (the capped mode's) keeps them.
  if (env.NODE_OPTIONS === undefined) delete childEnv.NODE_OPTIONS;
  const started = performance.now();
  // `cpus` (BENCH_COST_PIN): the process and every thread it starts kept on those CPUs
  // (`taskset` execs node, or `wrap`, which runs node in its own process: the pid is node's).
  const command = [...(cpus === undefined ? [] : ['taskset', '-c', cpus]), ...wrap, nodeBin];
  const proc = spawn(command[0], [...command.slice(1), ...nodeArgs, script, ...args], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const child = new Child(name, proc, port);
  const deadline = started + timeoutMs;
  for (;;) {
    if (child.exited) throw new Error(`${name} exited before it was ready\n${child.describe()}`);
    if ((await probe(port, readyPath)) === 200) break;
    if (performance.now() > deadline) {
      await child.stop();
      throw new Error(`${name} not ready within ${timeoutMs} ms\n${child.describe()}`);
    }
    await sleep(5);
  }
  child.readyMs = performance.now() - started;
  return child;
}
