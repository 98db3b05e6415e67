import type { AppLogger } from '@geoaccount/observability';
import type { CredentialUseLog } from '@geoaccount/signing';
import { type InternalApiOptions, callInternalApi } from './internal-api';

/** Most credential uses sent in one report (the account service takes up to 10000). */
const MAX_USES_PER_REPORT = 1000;

/**
 * Reports the credential uses the signature guard recorded in memory (the registry's
 * `CredentialUseLog`: the last minute each control-plane credential verified a request) in
 * one `POST {APPS_URL}/internal/v1/credential-uses` every `CREDENTIAL_USE_FLUSH_SECONDS`
 * (docs/contract.md §14 `last_used_time`): a request costs a map write, never a call. A report
 * that fails is put back and sent with the next one.
 */
export class CredentialUseRecorder {
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly log: CredentialUseLog,
    private readonly options: InternalApiOptions & { flushMs: number },
    private readonly logger: AppLogger,
  ) {}

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
    const uses = this.log.drain();
    for (let i = 0; i < uses.length; i += MAX_USES_PER_REPORT) {
      const chunk = uses.slice(i, i + MAX_USES_PER_REPORT);
      const body = { uses: chunk.map((u) => ({ credential_id: u.credentialId, time: new Date(u.minute).toISOString() })) };
      try {
        await callInternalApi(this.options, 'POST', '/internal/v1/credential-uses', body);
      } catch (err) {
        // Kept for the next report (a later use of the same credential wins).
        this.log.restore(uses.slice(i));
        this.logger.warn(
          { reason: (err as Error).message, credentials: uses.length - i },
          'credential uses not reported; retrying with the next report',
        );
        return;
      }
    }
  }
}
