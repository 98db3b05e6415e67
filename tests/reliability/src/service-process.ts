import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { appCredentialsEnv } from './apps';
import { freePort, waitFor } from './net';
import { LOG_DIR, SERVICE_MAIN, type ServiceKind } from './paths';

export interface ServiceOptions {
  /** Names the log file (`<name>-<pid>.log`). */
  name: string;
  /** Environment of the service, on top of the suite's defaults; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  port?: number;
  /** How long the start may take (migrations, geodata). */
  startTimeoutMs?: number;
  /** Another build's entry point (e.g. the previous release's `dist/main.js`); default this checkout's. */
  main?: string;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Variables of the suite's own process that must not leak into a service. */
const SCRUBBED = ['DATABASE_URL', 'REDIS_URL', 'NODE_OPTIONS', 'APP_CREDENTIALS', 'APP_CREDENTIALS_FILE', 'PORT', 'HOST', 'JEST_WORKER_ID'];

const running = new Set<ServiceProcess>();

/** A compiled service (`apps/<kind>/dist/main.js`) running as a child process on 127.0.0.1. */
export class ServiceProcess {
  readonly exited: Promise<Exit>;
  private exitInfo?: Exit;
  private tail = '';

  private constructor(
    readonly kind: ServiceKind,
    readonly name: string,
    readonly port: number,
    readonly child: ChildProcess,
    readonly logFile: string,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        running.delete(this);
        resolve(this.exitInfo);
      }),
    );
    const log = createWriteStream(logFile);
    const keep = (chunk: Buffer) => {
      log.write(chunk);
      this.tail = (this.tail + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', () => setImmediate(() => log.end()));
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  get exit(): Exit | undefined {
    return this.exitInfo;
  }

  /** The last few KB of the service's output (for failure messages). */
  get output(): string {
    return this.tail;
  }

  static async start(kind: ServiceKind, options: ServiceOptions): Promise<ServiceProcess> {
    const main = options.main ?? SERVICE_MAIN[kind];
    if (!existsSync(main)) throw new Error(`${main} is missing: build the services first (pnpm build)`);
    mkdirSync(LOG_DIR, { recursive: true });
    const port = options.port ?? (await freePort());
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SCRUBBED.includes(k)) env[k] = v;
    Object.assign(env, {
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_CREDENTIALS: appCredentialsEnv(),
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      // The suite drives thousands of requests from one app: the per-app rate limit (on by
      // default for location) would answer 429; a test of the limit sets its own.
      RATE_LIMIT_PER_MINUTE: '0',
      // Likewise the account's login budget per app (on by default); the flood test sets its own.
      LOGIN_RATE_LIMIT_PER_MINUTE: '0',
      // And the hashing queue (four per core by default): the races fire 100 concurrent
      // registrations and 40 concurrent logins; the flood test keeps the default.
      PASSWORD_HASH_QUEUE: '1000',
    });
    for (const [k, v] of Object.entries(options.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const svc = new ServiceProcess(kind, options.name, port, child, join(LOG_DIR, `${options.name}-${child.pid}.log`));
    running.add(svc);
    try {
      await waitFor(
        `${options.name} to answer on port ${port}`,
        async () => {
          if (!svc.alive) throw new Error(`${options.name} exited with ${JSON.stringify(svc.exit)}:\n${svc.output}`);
          return svc.answers();
        },
        options.startTimeoutMs ?? 60_000,
        50,
      );
    } catch (err) {
      await svc.kill();
      throw err;
    }
    return svc;
  }

  /** Whether the service answers HTTP at all (`/health/live`). */
  async answers(): Promise<boolean> {
    try {
      const res = await fetch(`${this.baseUrl}/health/live`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return true;
    } catch {
      return false;
    }
  }

  /** Sends a signal and waits for the exit (SIGKILL after `timeoutMs`). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 20_000): Promise<Exit> {
    if (!this.alive) return this.exitInfo!;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  async kill(): Promise<Exit> {
    return this.stop('SIGKILL', 5000);
  }
}

/** Stops every service the suite started and that still runs (afterAll of each file). */
export async function stopAllServices(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop('SIGTERM', 10_000)));
}

process.once('exit', () => {
  for (const s of running) s.child.kill('SIGKILL');
});
