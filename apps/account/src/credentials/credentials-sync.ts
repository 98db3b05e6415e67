import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_REGISTRY, type AppRegistry, type ManagedApp } from '@geoaccount/signing';
import { ALL_APPS } from '../common/app-scope';
import { AccountConfig } from '../config/account.config';
import { CredentialSecrets } from './credential-secrets';
import { CredentialsRepository } from './credentials.repository';

/**
 * Keeps this instance's registry of apps in step with the control plane (docs/contract.md
 * §14: a change takes effect on every instance within 5 s): every `CONTROL_PLANE_POLL_MS` it
 * reads the change counter (one indexed row; no LISTEN, which a transaction pooler breaks)
 * and, when it moved, loads the active apps and credentials into the in-memory registry, so
 * that a request's signature check never queries the database. It also writes the recorded
 * credential uses every `CREDENTIAL_USE_FLUSH_SECONDS`, one statement per batch.
 */
@Injectable()
export class CredentialsSync implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CredentialsSync.name);
  private version: string | undefined;
  private pollTimer?: NodeJS.Timeout;
  private flushTimer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** A refresh failed and was logged: the next failures are not (one line per outage). */
  private failing = false;

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly secrets: CredentialSecrets,
    @Inject(APP_REGISTRY) private readonly registry: AppRegistry,
    @Inject(AccountConfig) private readonly config: AccountConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.refresh();
    this.pollTimer = setInterval(() => void this.refresh(), this.config.CONTROL_PLANE_POLL_MS);
    this.pollTimer.unref();
    this.flushTimer = setInterval(() => void this.flushUses(), this.config.CREDENTIAL_USE_FLUSH_SECONDS * 1000);
    this.flushTimer.unref();
  }

  /** Before the pool closes: the last uses are written. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pollTimer);
    clearInterval(this.flushTimer);
    await this.running?.catch(() => undefined);
    await this.flushUses();
  }

  /** Loads the apps when the counter moved (`force`: whatever it says); errors keep the last good list. */
  refresh(force = false): Promise<void> {
    // One refresh at a time; a forced one waits for the running one, then runs.
    const run = async (): Promise<void> => {
      try {
        const version = await this.credentials.version();
        if (!force && version === this.version) return;
        const rows = await this.credentials.active(ALL_APPS);
        const apps = new Map<string, ManagedApp>();
        for (const row of rows) {
          let keys: { secret: string; aesKey: string };
          try {
            keys = this.secrets.open(row.appToken, row.credentialId, row);
          } catch (err) {
            this.logger.error(`credential ${row.credentialId} of ${row.appToken} does not decrypt (${(err as Error).message}): skipped`);
            continue;
          }
          let app = apps.get(row.appToken);
          if (!app) apps.set(row.appToken, (app = { appToken: row.appToken, aesMode: row.aesMode, credentials: [] }));
          app.credentials.push({
            credentialId: row.credentialId,
            secret: keys.secret,
            aesKey: keys.aesKey,
            ...(row.expireTime ? { expiresAt: row.expireTime.getTime() } : {}),
          });
        }
        this.registry.setManaged([...apps.values()]);
        this.version = version;
        if (this.failing) this.logger.log('control plane refresh works again');
        this.failing = false;
      } catch (err) {
        if (!this.failing) this.logger.warn(`control plane refresh failed, keeping the last apps: ${(err as Error).message}`);
        this.failing = true;
      }
    };
    const next = (this.running ?? Promise.resolve()).then(run);
    this.running = next;
    return next;
  }

  /** Writes the uses recorded since the last flush; a failed write keeps them for the next one. */
  async flushUses(): Promise<void> {
    const uses = this.registry.uses.drain();
    if (uses.length === 0) return;
    try {
      await this.credentials.recordUses(ALL_APPS, uses.map((u) => ({ credentialId: u.credentialId, time: new Date(u.minute) })));
    } catch (err) {
      this.registry.uses.restore(uses);
      this.logger.warn(`credential uses not written, kept for the next flush: ${(err as Error).message}`);
    }
  }
}
