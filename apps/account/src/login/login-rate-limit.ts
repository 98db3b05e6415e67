import { Inject, Injectable } from '@nestjs/common';
import { AccountCodes, RetryLaterException } from '@geoaccount/api';
import { TokenBucketLimiter } from '@geoaccount/http';
import { AccountConfig } from '../config/account.config';

/**
 * `LOGIN_RATE_LIMIT_PER_MINUTE` (docs/contract.md §1): login attempts per calling app and
 * instance, before any password work. A burst is two seconds' worth, so that a flood is
 * refused before it fills the hashing queue the other apps' logins need. Past it: 429 90429
 * with `Retry-After`.
 */
@Injectable()
export class LoginRateLimit {
  private readonly limiter?: TokenBucketLimiter;

  constructor(@Inject(AccountConfig) config: AccountConfig) {
    const perMinute = config.LOGIN_RATE_LIMIT_PER_MINUTE;
    if (perMinute > 0) this.limiter = new TokenBucketLimiter(perMinute, Date.now, Math.ceil(perMinute / 30));
  }

  /** Takes one attempt of `appToken`'s budget; throws 429 with `Retry-After` when it is spent. */
  take(appToken: string): void {
    const decision = this.limiter?.take(appToken);
    if (decision && !decision.allowed) throw new RetryLaterException(AccountCodes.RATE_LIMITED, decision.retryAfterSeconds);
  }
}
