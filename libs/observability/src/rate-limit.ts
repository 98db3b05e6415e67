import { type CallHandler, type ExecutionContext, HttpException, HttpStatus, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { CALLER_APP, type SignedRequest } from '@geoaccount/signing';

interface Bucket {
  tokens: number;
  updated: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until a request would be allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

const MAX_BUCKETS = 10_000;

/**
 * Token buckets per key: `perMinute` requests a minute on average, bursts up to `perMinute`.
 * Kept in process memory, so each instance of a service enforces its own budget.
 */
export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(perMinute) || perMinute < 1) throw new Error(`perMinute must be a positive integer, got ${perMinute}`);
    this.perMs = perMinute / 60_000;
  }

  take(key: string): RateDecision {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.updated) * this.perMs);
      bucket.updated = now;
    } else {
      if (this.buckets.size >= MAX_BUCKETS) this.sweep(now);
      bucket = { tokens: this.perMinute, updated: now };
      this.buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)) };
  }

  /** Drops buckets that have refilled completely (they hold no state worth keeping). */
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updated) * this.perMs >= this.perMinute) this.buckets.delete(key);
    }
    // Still full of active keys: forget the oldest half rather than grow without bound.
    if (this.buckets.size >= MAX_BUCKETS) {
      let drop = this.buckets.size / 2;
      for (const key of this.buckets.keys()) {
        if (drop-- <= 0) break;
        this.buckets.delete(key);
      }
    }
  }
}

/**
 * The calling app of a request: the app whose signature was verified, else the `app_token`
 * (account) or `userToken` (location) it names. Undefined for unsigned routes (health,
 * metrics, docs), which are never limited.
 */
export function callerKeyOf(req: Request): string | undefined {
  const verified = (req as SignedRequest)[CALLER_APP];
  if (verified) return verified.appToken;
  const query = (req.query ?? {}) as Record<string, unknown>;
  const body = (req.body ?? {}) as Record<string, unknown>;
  for (const value of [query.app_token, body.app_token, query.userToken]) {
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/**
 * Per-app rate limit: runs after the signature guards, so the key is the verified app.
 * Over the budget: 429 with `Retry-After`; the exception filter renders the envelope's
 * rate code (90429 / 099).
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(private readonly limiter: TokenBucketLimiter) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const key = callerKeyOf(http.getRequest<Request>());
    if (key !== undefined) {
      const decision = this.limiter.take(key);
      if (!decision.allowed) {
        http.getResponse<Response>().setHeader('Retry-After', String(decision.retryAfterSeconds));
        throw new HttpException('too many requests', HttpStatus.TOO_MANY_REQUESTS);
      }
    }
    return next.handle();
  }
}
