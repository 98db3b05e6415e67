import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join, resolve } from 'node:path';

/*
 * Test support for the services' process-level suites (graceful shutdown under load, log
 * redaction of a real run): build the compiled service, start it as a child process, drive
 * load against it. Not used by the services themselves.
 */

/** The repository root (found from this file in src/ or dist/). */
const ROOT = resolve(__dirname, '../../..');

/**
 * Compiles the workspace libraries a service uses and the service itself
 * (`tsc -p tsconfig.build.json`, incremental) and returns its compiled `dist/main.js`.
 */
export function buildService(appDir: string): string {
  const tsc = require.resolve('typescript/bin/tsc');
  for (const dir of [...workspaceLibs(appDir), appDir]) {
    const res = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.build.json')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (res.status !== 0) throw new Error(`build of ${dir} failed: ${res.stdout}${res.stderr}`);
  }
  return join(appDir, 'dist', 'main.js');
}

function workspaceLibs(dir: string, seen: string[] = []): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dep of Object.keys(pkg.dependencies ?? {}).filter((d) => d.startsWith('@geoaccount/'))) {
    const lib = join(ROOT, 'libs', dep.slice('@geoaccount/'.length));
    if (seen.includes(lib)) continue;
    workspaceLibs(lib, seen);
    seen.push(lib);
  }
  return seen;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolvePort(port));
    });
  });
}

export interface ServiceProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** Starts the compiled service on a free port of 127.0.0.1 and waits until /health/ready answers 200. */
export async function startServiceProcess(main: string, env: Record<string, string>, readyTimeoutMs = 60_000): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (gone) throw new Error(`the service exited before it was ready:\n${out}`);
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service was not ready within ${readyTimeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => out,
    exited,
    async stop() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** How a request of a load test ended. */
export type Outcome = 'ok' | 'refused' | 'failed';

/** `refused`: the connection was refused (the listener is closed); anything else that is not an answer is a failure. */
export function outcomeOfError(err: unknown): Outcome {
  const cause = (err as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED' ? 'refused' : 'failed';
}

export interface LoadResult {
  ok: number;
  okAfter: number;
  refused: number;
  failures: string[];
}

/**
 * Runs `concurrency` loops of `request` until `stopAt()` says so or the connection is
 * refused. `request` resolves with an error text for a wrong answer, undefined for a right
 * one. `okAfter` counts right answers that completed after `markTime()`.
 */
export async function driveLoad(
  concurrency: number,
  request: (i: number) => Promise<string | undefined>,
  stop: () => boolean,
  mark: () => number | undefined,
): Promise<LoadResult> {
  const result: LoadResult = { ok: 0, okAfter: 0, refused: 0, failures: [] };
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!stop()) {
        const i = n++;
        try {
          const wrong = await request(i);
          if (wrong === undefined) {
            result.ok++;
            const since = mark();
            if (since !== undefined && Date.now() > since) result.okAfter++;
          } else result.failures.push(wrong);
        } catch (err) {
          if (outcomeOfError(err) === 'refused') {
            result.refused++;
            return;
          }
          result.failures.push(`${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}`);
        }
      }
    }),
  );
  return result;
}

/** What a slow client saw: when the server closed the connection, and what it answered. */
export interface SlowRequestResult {
  /** Milliseconds from connecting to the server closing the connection; `undefined`: still open at `giveUpMs`. */
  closedAfterMs: number | undefined;
  /** Everything the server sent. */
  received: string;
}

/**
 * A client that sends `chunks` over one raw TCP connection, one every `everyMs` (then sends
 * nothing more), as a slow or hostile client does, until the server closes the connection
 * or `giveUpMs` passes.
 */
export function slowRequest(
  port: number,
  chunks: readonly string[],
  options: { everyMs: number; giveUpMs: number },
): Promise<SlowRequestResult> {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let next = 0;
    const timer = setInterval(() => {
      if (next < chunks.length && !socket.destroyed) socket.write(chunks[next++]!);
    }, options.everyMs);
    const giveUp = setTimeout(() => finish(undefined), options.giveUpMs);
    let done = false;
    const finish = (closedAfterMs: number | undefined) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolvePromise({ closedAfterMs, received });
    };
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (received += data));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(Date.now() - started));
  });
}

/** The JSON log lines a service wrote for one request (by its `X-Request-Id`), parsed. */
export function requestLogLines(output: string, requestId: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes(`"requestId":"${requestId}"`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** True when something accepts TCP connections on 127.0.0.1:`port` (within a second). */
export function reachable(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolvePort(true);
    });
    socket.once('error', () => resolvePort(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolvePort(false);
    });
  });
}

/**
 * A server binary of a test's own (slapd, PgBouncer): spawned with its standard error kept,
 * ready once every port of `ports` accepts connections (within 5 s), stopped with SIGTERM.
 */
export class Daemon {
  private constructor(
    private readonly name: string,
    private readonly child: ChildProcess,
  ) {}

  /**
   * Starts `binary` with `args`; fails with its exit code, its standard error and `detail()`
   * (e.g. the tail of its log file) if it exits first, or if a port is still closed after 5 s.
   */
  static async start(
    name: string,
    binary: string,
    args: readonly string[],
    ports: readonly number[],
    detail: () => string = () => '',
  ): Promise<Daemon> {
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const tail = () => [stderr.trim().split('\n').slice(-3).join(' | '), detail().trim()].filter(Boolean).join(' ');
    for (let i = 0; i < 100; i++) {
      if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${tail()}`);
      if ((await Promise.all(ports.map(reachable))).every(Boolean)) return new Daemon(name, child);
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
    child.kill('SIGKILL');
    throw new Error(`${name} not listening on ${ports.join(', ')} after 5 s: ${tail()}`);
  }

  /** Stops it (SIGTERM) and waits for its exit; nothing if it has exited. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolveExit) => {
      child.once('exit', () => resolveExit());
      child.kill('SIGTERM');
    });
  }

  toString(): string {
    return `${this.name} (pid ${this.child.pid})`;
  }
}
