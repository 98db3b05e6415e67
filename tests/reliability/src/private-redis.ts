import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, reachable, waitFor } from './net';

/** A `redis-server` of the suite's own on a free loopback port, which a test may kill and start again. */
export class PrivateRedis {
  private child?: ChildProcess;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly extraArgs: string[],
  ) {}

  static async start(extraArgs: string[] = [], port?: number): Promise<PrivateRedis> {
    const redis = new PrivateRedis(port ?? (await freePort()), mkdtempSync(join(tmpdir(), 'reliability-redis-')), extraArgs);
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      this.dir,
      ...this.extraArgs,
    ];
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    this.child = child;
    await waitFor(`redis-server on port ${this.port}`, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      return reachable(this.port);
    });
  }

  /** SIGKILL: gone without closing anything. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async destroy(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
