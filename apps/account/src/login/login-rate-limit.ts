import { Inject, Injectable } from '@nestjs/common';
import { RetryLaterException } from '@geoaccount/api';
import { AccountCodes } from '../common/account-codes';
import { TokenBucketLimiter } from '@geoaccount/http';
import { AccountConfig } from '../config/account.config';
import { PasswordHasher } from '../users/password-hasher';

/**
 * `LOGIN_RATE_LIMIT_PER_MINUTE` (docs/contract.md §1): login attempts per calling app and
 * instance, before any password work. A burst is two seconds' worth, so that a flood is
 * refused before it fills the hashing queue the other apps' logins need. Past it: 429 90429
 * with `Retry-After`.
 */
@Injectable()
export class LoginRateLimit {
  private readonly limiter?: TokenBucketLimiter;
  /** Logins of each app in progress here, and how many one app may have: half the hashing pool's places. */
  private readonly inFlight = new Map<string, number>();
  private readonly maxInFlight: number;

  constructor(@Inject(AccountConfig) config: AccountConfig, hasher: PasswordHasher) {
    const perMinute = config.LOGIN_RATE_LIMIT_PER_MINUTE;
    if (perMinute > 0) this.limiter = new TokenBucketLimiter(perMinute, Date.now, Math.ceil(perMinute / 30));
    this.maxInFlight = Math.max(1, Math.floor((hasher.pool.concurrency + hasher.pool.maxQueued) / 2));
  }

  /**
   * Takes one attempt of `appToken`'s budget and a place among its logins in progress (when the
   * limit is on, one app never holds more than half of the hashing queue, so the other apps'
   * logins still find room); throws 429 with `Retry-After` when either is spent. Call the
   * returned function when the attempt is over.
   */
  enter(appToken: string): () => void {
    if (!this.limiter) return () => undefined;
    const decision = this.limiter.take(appToken);
    if (!decision.allowed) throw new RetryLaterException(AccountCodes.RATE_LIMITED, decision.retryAfterSeconds);
    const now = this.inFlight.get(appToken) ?? 0;
    if (now >= this.maxInFlight) throw new RetryLaterException(AccountCodes.RATE_LIMITED, 1);
    this.inFlight.set(appToken, now + 1);
    return () => {
      const left = (this.inFlight.get(appToken) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(appToken);
      else this.inFlight.set(appToken, left);
    };
  }
}
