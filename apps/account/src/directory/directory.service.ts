import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiException } from '@geoaccount/api';
import { AccountCodes } from '../common/account-codes';
import { type CircuitStateName, Metrics, type UpstreamMetrics } from '@geoaccount/observability';
import { Counter } from 'prom-client';
import { DIRECTORY_CONFIG } from './directory.tokens';
import type { DirectoryConfig, DirectorySettings } from '../config/directory.config';
import { DirectoryUnavailableError, LdapDirectory } from './ldap-directory';

/** Consecutive unavailable checks that open a directory's circuit, and how long it stays open. */
const BREAKER = { failures: 5, cooldownMs: 5_000 };

type CircuitState = CircuitStateName;

/** A directory with its circuit breaker (as the location upstreams have one). */
class GuardedDirectory {
  private failures = 0;
  private openUntil = 0;
  private probing = false;
  /**
   * Smoothed time of a check that reached the user bind: a check that found no entry (or two)
   * waits until as long has passed, so that its answer comes as late as a wrong password's.
   */
  private bindMs = 0;
  state: CircuitState = 'closed';
  /** What the last check met: an answer, or no answer. */
  lastCheck: 'none' | 'answered' | 'unavailable' = 'none';

  constructor(
    readonly name: string,
    readonly directory: LdapDirectory,
    private readonly metrics: UpstreamMetrics,
    private readonly results: Counter<'directory' | 'result'>,
    private readonly logger: Logger,
  ) {}

  async verify(loginId: string, password: string): Promise<boolean> {
    if (this.state === 'open') {
      if (Date.now() < this.openUntil || this.probing) {
        this.results.inc({ directory: this.name, result: 'unavailable' });
        this.metrics.error('check', 'circuit_open');
        throw new DirectoryUnavailableError(`${this.name}: circuit open`, 'circuit_open');
      }
      this.setState('half_open');
    }
    const probe = this.state === 'half_open';
    if (probe) this.probing = true;
    const start = process.hrtime.bigint();
    try {
      const verdict = await this.directory.verify(loginId, password);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      this.metrics.observe('check', ms / 1000, 'ok');
      this.succeeded();
      this.results.inc({ directory: this.name, result: verdict === 'accepted' ? 'accepted' : 'refused' });
      if (verdict === 'accepted' || verdict === 'rejected') this.bindMs = this.bindMs ? this.bindMs * 0.8 + ms * 0.2 : ms;
      else await pause(this.bindMs - ms);
      return verdict === 'accepted';
    } catch (err) {
      this.metrics.observe('check', Number(process.hrtime.bigint() - start) / 1e9, 'error');
      if (err instanceof DirectoryUnavailableError) {
        this.results.inc({ directory: this.name, result: 'unavailable' });
        this.metrics.error('check', err.reason);
        this.failed(err);
      }
      throw err;
    } finally {
      if (probe) this.probing = false;
    }
  }

  private succeeded(): void {
    this.failures = 0;
    this.lastCheck = 'answered';
    if (this.state !== 'closed') {
      this.setState('closed');
      this.logger.log(`${this.name}: circuit closed, directory answering again`);
    }
  }

  private failed(err: DirectoryUnavailableError): void {
    this.failures++;
    this.lastCheck = 'unavailable';
    if (this.state === 'half_open' || this.failures >= BREAKER.failures) {
      this.openUntil = Date.now() + BREAKER.cooldownMs;
      if (this.state !== 'open') {
        this.logger.warn(
          `${this.name}: circuit opened after ${this.failures} unavailable checks (last: ${err.message}); checks refused for ${BREAKER.cooldownMs} ms`,
        );
      }
      this.setState('open');
    }
  }

  private setState(state: CircuitState): void {
    this.state = state;
    this.metrics.circuit(state);
  }
}

function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/**
 * Domain logins (docs/contract.md §9): the directory of each app (its own, else the `LDAP_*` one)
 * checks the password of a domain user. Unavailable: 503 20499.
 */
@Injectable()
export class DirectoryService {
  private readonly logger = new Logger(DirectoryService.name);
  private readonly byApp = new Map<string, GuardedDirectory>();
  private readonly fallback?: GuardedDirectory;
  private readonly warned = new Set<string>();

  constructor(@Inject(DIRECTORY_CONFIG) config: DirectoryConfig, metrics: Metrics) {
    const results = new Counter({
      name: 'directory_checks_total',
      help: 'Domain login checks by directory and result (accepted, refused, unavailable).',
      labelNames: ['directory', 'result'],
      registers: [metrics.registry],
    });
    const guard = (name: string, settings: DirectorySettings) =>
      new GuardedDirectory(name, new LdapDirectory(settings), metrics.upstream(name), results, this.logger);
    for (const [appToken, settings] of config.byApp) this.byApp.set(appToken, guard(`directory:${appToken}`, settings));
    if (config.fallback) this.fallback = guard('directory', config.fallback);
  }

  /** Whether any directory is configured. */
  get configured(): boolean {
    return this.fallback !== undefined || this.byApp.size > 0;
  }

  /**
   * Checks a domain user's password; `false` for a refusal (wrong password, not exactly one
   * entry, no directory for the app). Throws 503 20499 when the directory cannot answer.
   */
  async verify(appToken: string, loginId: string, password: string): Promise<boolean> {
    if (password.trim() === '') return false;
    const directory = this.byApp.get(appToken) ?? this.fallback;
    if (!directory) {
      if (!this.warned.has(appToken)) {
        this.warned.add(appToken);
        this.logger.warn(`domain login for app ${appToken}, which has no directory (APP_CREDENTIALS directory or LDAP_URL): refused`);
      }
      return false;
    }
    try {
      return await directory.verify(loginId, password);
    } catch (err) {
      if (err instanceof DirectoryUnavailableError) {
        this.logger.warn(`domain login: ${err.message}`);
        throw new ApiException(AccountCodes.LOGIN_DIRECTORY_UNAVAILABLE);
      }
      throw err;
    }
  }

  /** Circuit state and last check of each directory, for readiness (a degraded detail, never down). */
  status(): Record<string, { circuit: CircuitState; lastCheck: GuardedDirectory['lastCheck'] }> {
    const out: Record<string, { circuit: CircuitState; lastCheck: GuardedDirectory['lastCheck'] }> = {};
    for (const d of [...(this.fallback ? [this.fallback] : []), ...this.byApp.values()])
      out[d.name] = { circuit: d.state, lastCheck: d.lastCheck };
    return out;
  }
}
