import type { AppLogger } from '@geoaccount/observability';
import type { CredentialUseSink } from '@geoaccount/signing';
import { type InternalApiOptions, callInternalApi } from './internal-api';

/** Most credential uses sent in one report. */
const MAX_USES_PER_REPORT = 1000;
/** Most distinct credentials remembered between two reports (the registry holds far fewer). */
const MAX_PENDING = 100_000;

/**
 * Remembers the last time each control-plane credential verified a request, in memory, and
 * reports them in one `POST {APPS_URL}/internal/v1/credential-uses` every
 * `CREDENTIAL_USE_FLUSH_SECONDS` (docs/contract.md §14 `last_used_time`): a request costs a
 * map write, never a call. A report that fails is retried with the next one.
 */
export class CredentialUseRecorder implements CredentialUseSink {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly options: InternalApiOptions & { flushMs: number },
    private readonly logger: AppLogger,
  ) {}

  record(credentialId: string, time: number): void {
    const before = this.pending.get(credentialId);
    if (before === undefined) {
      if (this.pending.size >= MAX_PENDING) return;
      this.pending.set(credentialId, time);
    } else if (time > before) {
      this.pending.set(credentialId, time);
    }
  }

  /** Uses not reported yet. */
  get size(): number {
    return this.pending.size;
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  /** Stops the timer and reports what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing;
    await this.flush();
  }

  /** Reports the uses recorded so far (one call per 1000 credentials). */
  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async send(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const entries = [...batch];
    for (let i = 0; i < entries.length; i += MAX_USES_PER_REPORT) {
      const chunk = entries.slice(i, i + MAX_USES_PER_REPORT);
      const uses = chunk.map(([credentialId, time]) => ({ credential_id: credentialId, time: new Date(time).toISOString() }));
      try {
        await callInternalApi(this.options, 'POST', '/internal/v1/credential-uses', { uses });
      } catch (err) {
        // Kept for the next report (a later use of the same credential wins).
        for (const [credentialId, time] of entries.slice(i)) this.record(credentialId, time);
        this.logger.warn({ reason: (err as Error).message, credentials: entries.length - i }, 'credential uses not reported; retrying with the next report');
        return;
      }
    }
  }
}
