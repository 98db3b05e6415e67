import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { hash, parseOptions, verify } from '@node-rs/argon2';
import { RetryLaterException } from '@geoaccount/api';
import { AccountCodes } from '../common/account-codes';
import { AccountConfig } from '../config/account.config';
import { HashingBusyError, HashingPool } from './hashing-pool';

/** argon2id cost parameters (OWASP: 19 MiB, t=2, p=1). */
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export function argon2ParamsOf(config: AccountConfig): Argon2Params {
  return { memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST, parallelism: config.ARGON2_PARALLELISM };
}

/** What checking a password against a stored hash found. */
export interface PasswordCheck {
  ok: boolean;
  /** The hash was made with other parameters than the current ones: store a new one. */
  needsRehash: boolean;
}

const ARGON2ID = 2;

/**
 * Hashes and checks passwords with argon2id. The work runs on the native thread pool
 * (the async API), never on the event loop. A dummy hash made at start with the same
 * parameters stands in for users that do not exist or have no password, so that a
 * failed login costs the same time whatever the reason.
 */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  private readonly params: Argon2Params;
  private dummyHash?: Promise<string>;
  /** argon2 verifications started (real and dummy): what each login path must do once. */
  verifications = 0;

  /** argon2 work of this instance: bounded to its cores, with a bounded queue. */
  readonly pool: HashingPool;

  constructor(@Inject(AccountConfig) config: AccountConfig) {
    this.params = argon2ParamsOf(config);
    const concurrency = config.PASSWORD_HASH_CONCURRENCY > 0 ? config.PASSWORD_HASH_CONCURRENCY : undefined;
    const pool = new HashingPool(concurrency);
    this.pool = config.PASSWORD_HASH_QUEUE > 0 ? new HashingPool(pool.concurrency, config.PASSWORD_HASH_QUEUE) : pool;
  }

  /** `work` in the pool; a full queue is 429 90429 with `Retry-After`. */
  private async pooled<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.pool.run(work);
    } catch (err) {
      if (err instanceof HashingBusyError) throw new RetryLaterException(AccountCodes.RATE_LIMITED, err.retryAfterSeconds);
      throw err;
    }
  }

  onModuleInit(): void {
    void this.dummy();
  }

  hash(password: string): Promise<string> {
    return this.pooled(() => hash(password, this.params));
  }

  /** Checks `password` against `stored`, or against the dummy hash when there is none (always fails). */
  async check(stored: string | null | undefined, password: string): Promise<PasswordCheck> {
    if (!stored) {
      await this.dummyVerify(password);
      return { ok: false, needsRehash: false };
    }
    let ok: boolean;
    try {
      this.verifications += 1;
      ok = await this.pooled(() => verify(stored, password));
    } catch (err) {
      // A full queue is no verdict on the password.
      if (err instanceof RetryLaterException) throw err;
      return { ok: false, needsRehash: false };
    }
    return { ok, needsRehash: ok && this.outdated(stored) };
  }

  /**
   * The work of a failed check without a hash to check against: one argon2 verification of
   * `password` against the dummy hash (never matches). A domain user's login does it too
   * (docs/contract.md §13: domain, ordinary and unknown ids take comparable time).
   */
  async dummyVerify(password: string): Promise<void> {
    const dummy = await this.dummy();
    this.verifications += 1;
    await this.pooled(() => verify(dummy, password).catch(() => false));
  }

  /** True when `stored` was not made with argon2id and the current parameters. */
  outdated(stored: string): boolean {
    try {
      const used = parseOptions(stored);
      return (
        (used.algorithm as number) !== ARGON2ID ||
        used.memoryCost !== this.params.memoryCost ||
        used.timeCost !== this.params.timeCost ||
        used.parallelism !== this.params.parallelism
      );
    } catch {
      return true;
    }
  }

  private dummy(): Promise<string> {
    // Once, at start: outside the pool, so that a busy moment cannot spoil it for good.
    this.dummyHash ??= hash(randomBytes(16).toString('base64'), this.params);
    return this.dummyHash;
  }
}
