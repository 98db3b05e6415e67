import type { AppLogger } from '@geoaccount/observability';
import type { AppRegistry } from '@geoaccount/signing';
import { type InternalApiOptions, callInternalApi } from './internal-api';
import { parseInternalApps } from './internal-apps';

export interface AppsPollerOptions extends InternalApiOptions {
  /** Interval between two reads; each wait is shortened by a random 0-20 %. */
  intervalMs: number;
}

/**
 * Keeps the registry's control-plane apps in step with `GET {APPS_URL}/internal/v1/apps`
 * (docs/contract.md §14): read every few seconds, the whole list replaced on each good
 * answer; while the account service is down, too slow or answers something malformed, the
 * last good list stays. The apps of `APP_CREDENTIALS` are never touched.
 */
export class AppsPoller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<boolean> | undefined;
  private stopped = true;
  private failing = false;
  private lastBody = '';
  /** Epoch ms of the last good answer; undefined before the first. */
  lastSuccessAt: number | undefined;

  constructor(
    private readonly options: AppsPollerOptions,
    private readonly registry: AppRegistry,
    private readonly logger: AppLogger,
    private readonly random: () => number = Math.random,
  ) {}

  /** Reads the list once now, then every interval until `stop()`. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.refresh();
    this.schedule();
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return this.running?.then(() => undefined) ?? Promise.resolve();
  }

  /** One read; true when the list was taken. Concurrent calls share one read. */
  refresh(): Promise<boolean> {
    this.running ??= this.read().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    const wait = this.options.intervalMs * (1 - 0.2 * this.random());
    this.timer = setTimeout(() => {
      void this.refresh().then(() => this.schedule());
    }, wait);
    this.timer.unref();
  }

  private async read(): Promise<boolean> {
    let answer;
    try {
      const body = await callInternalApi(this.options, 'GET', '/internal/v1/apps');
      const text = JSON.stringify(body);
      if (text === this.lastBody) return this.succeeded();
      answer = parseInternalApps(body);
      this.registry.setManaged(answer.apps);
      this.lastBody = text;
    } catch (err) {
      // Logged on the first failure after a success only: a long outage is one line, not one per read.
      if (!this.failing) {
        this.logger.warn(
          { reason: (err as Error).message, lastSuccessAt: this.lastSuccessAt ? new Date(this.lastSuccessAt).toISOString() : null },
          'apps of the account service unavailable; keeping the last good list',
        );
      }
      this.failing = true;
      return false;
    }
    for (const line of answer.skipped) this.logger.warn({ entry: line }, 'app of the account service left out');
    this.logger.info({ apps: answer.apps.length, configured: this.registry.configuredApps().length }, 'apps of the account service loaded');
    return this.succeeded();
  }

  private succeeded(): boolean {
    if (this.failing) this.logger.info('apps of the account service available again');
    this.failing = false;
    this.lastSuccessAt = Date.now();
    return true;
  }
}
