import {
  type CallHandler,
  type DynamicModule,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Module,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';

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

  /** Most requests allowed at once after a quiet spell (default `perMinute`). */
  readonly burst: number;

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
    burst?: number,
  ) {
    if (!Number.isInteger(perMinute) || perMinute < 1) throw new Error(`perMinute must be a positive integer, got ${perMinute}`);
    this.perMs = perMinute / 60_000;
    this.burst = Math.max(1, Math.min(perMinute, burst ?? perMinute));
  }

  take(key: string): RateDecision {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.updated) * this.perMs);
      bucket.updated = now;
    } else {
      if (this.buckets.size >= MAX_BUCKETS) this.sweep(now);
      bucket = { tokens: this.burst, updated: now };
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
      if (bucket.tokens + (now - bucket.updated) * this.perMs >= this.burst) this.buckets.delete(key);
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

/** The key a request is limited by (e.g. its calling app); undefined: not limited (health, metrics, docs). */
export type RateKeyFn = (req: Request) => string | undefined;

/**
 * A service's rate limit: the limiter and the key of a request. Read by the interceptor and by
 * a direct route (libs/http/src/fast-path/direct-routes.ts), which must take the same token.
 */
export class RateLimit {
  constructor(
    readonly limiter: TokenBucketLimiter,
    readonly keyOf: RateKeyFn,
  ) {}

  /** The decision for `req` (a token taken when allowed); undefined when the request is not limited. */
  take(req: Request): RateDecision | undefined {
    const key = this.keyOf(req);
    return key === undefined ? undefined : this.limiter.take(key);
  }
}

/** DI token of the service's `RateLimit`, or null when the limit is off (`RateLimitModule.forRoot`). */
export const RATE_LIMIT = Symbol('RATE_LIMIT');

/**
 * Rate limit per key: runs after the guards (so a key function can read what a signature
 * guard verified). Over the budget: 429 with `Retry-After`; the exception filter renders the
 * envelope's rate code (90429 / 099).
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(@Inject(RATE_LIMIT) private readonly limit: RateLimit) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const decision = this.limit.take(http.getRequest<Request>());
    if (decision && !decision.allowed) {
      http.getResponse<Response>().setHeader('Retry-After', String(decision.retryAfterSeconds));
      throw new HttpException('too many requests', HttpStatus.TOO_MANY_REQUESTS);
    }
    return next.handle();
  }
}

export interface RateLimitOptions {
  /** Requests a minute per key and instance (`RATE_LIMIT_PER_MINUTE`); 0 or unset turns the limit off. */
  perMinute?: number;
  /** The key of a request (the services: the calling app, `callerKeyOf` of libs/signing). */
  keyOf: RateKeyFn;
}

/**
 * The rate limit as a global interceptor of every handler, when `perMinute` is above 0; the
 * `RateLimit` (or null) under `RATE_LIMIT` in both cases.
 */
@Module({})
export class RateLimitModule {
  static forRoot(options: RateLimitOptions): DynamicModule {
    const perMinute = options.perMinute ?? 0;
    const limit = perMinute > 0 ? new RateLimit(new TokenBucketLimiter(perMinute), options.keyOf) : null;
    return {
      module: RateLimitModule,
      providers: [
        { provide: RATE_LIMIT, useValue: limit },
        ...(limit ? [{ provide: APP_INTERCEPTOR, useClass: RateLimitInterceptor }] : []),
      ],
      exports: [RATE_LIMIT],
    };
  }
}
