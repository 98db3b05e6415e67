import { Logger } from '@nestjs/common';
import { type UpstreamMetrics, elapsedSeconds } from '@geoaccount/observability';
import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  TaskCancelledError,
  TimeoutStrategy,
  circuitBreaker,
  handleAll,
  handleWhen,
  retry,
  timeout,
  wrap,
  type IPolicy,
} from 'cockatiel';
import { UpstreamUnavailableError } from './upstream-errors';
import { UpstreamHttpError } from './upstream-http';

/** The upstream did not answer within `UPSTREAM_TIMEOUT_MS` (retries included). */
export class UpstreamTimeoutError extends UpstreamUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamTimeoutError';
  }
}

/** An error an adapter marks as worth another try (e.g. AMap's "server busy"). */
export class TransientUpstreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransientUpstreamError';
  }
}

const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
]);

/** Failures of an idempotent GET that another attempt may not repeat: 5xx, resets, timeouts. */
export function isTransientFailure(err: unknown): boolean {
  if (err instanceof BrokenCircuitError) return false;
  if (err instanceof TaskCancelledError || err instanceof TransientUpstreamError) return true;
  if (err instanceof UpstreamHttpError) return err.status >= 500 || err.status === 408;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT_NETWORK_CODES.has(code);
}

export interface UpstreamPolicyOptions {
  /** Name of the upstream, in logs and errors. */
  name: string;
  /** Total time for an answer, retries and backoff included. */
  timeoutMs: number;
  /** Further attempts after a transient failure. */
  retries: number;
  /** Consecutive failed attempts that open the circuit. */
  breakerFailures: number;
  /** How long the open circuit refuses calls before letting one through. */
  breakerCooldownMs: number;
  /** Latency, failures and circuit state of this upstream (`upstream_*` metrics). */
  metrics?: UpstreamMetrics;
}

/**
 * Timeout + retry with jittered exponential backoff + circuit breaker around every call to
 * one upstream. Whatever goes wrong comes out as an `UpstreamUnavailableError`
 * (`UpstreamTimeoutError` when the time ran out), which the service answers with 503.
 */
export class UpstreamPolicy {
  private readonly logger = new Logger('Upstream');
  private readonly policy: IPolicy;

  constructor(private readonly options: UpstreamPolicyOptions) {
    const { name, timeoutMs, retries, breakerFailures, breakerCooldownMs } = options;
    // One attempt may use most of the budget, but leaves room for a retry after a hang.
    const perAttempt = timeout(retries > 0 ? Math.max(50, Math.floor(timeoutMs * 0.6)) : timeoutMs, TimeoutStrategy.Aggressive);
    const retrying = retry(handleWhen(isTransientFailure), {
      maxAttempts: retries,
      backoff: new ExponentialBackoff({ initialDelay: 50, maxDelay: Math.max(50, Math.floor(timeoutMs / 4)) }),
    });
    const breaker = circuitBreaker(handleAll, { halfOpenAfter: breakerCooldownMs, breaker: new ConsecutiveBreaker(breakerFailures) });
    breaker.onBreak((reason) => {
      const why = 'error' in reason ? describe(reason.error) : 'isolated';
      this.logger.warn(
        `${name}: circuit opened after ${breakerFailures} consecutive failures (last: ${why}); calls refused for ${breakerCooldownMs} ms`,
      );
    });
    breaker.onReset(() => this.logger.log(`${name}: circuit closed, upstream answering again`));
    breaker.onStateChange((state) => options.metrics?.circuit(CIRCUIT_STATES[state]));
    retrying.onRetry((event) => {
      const why = 'error' in event ? describe(event.error) : 'result';
      this.logger.debug(`${name}: attempt ${event.attempt} failed (${why}); retrying in ${Math.round(event.delay)} ms`);
    });
    this.policy = wrap(retrying, breaker, perAttempt);
  }

  get name(): string {
    return this.options.name;
  }

  /**
   * Runs one upstream call; `fn` must honour the signal (it is aborted on timeout). The
   * total time, retries and backoff included, is bounded by `timeoutMs`: the answer is an
   * `UpstreamTimeoutError` then, whatever the call is still doing.
   */
  async run<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const { name, timeoutMs } = this.options;
    const total = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new UpstreamTimeoutError(`${name}: no answer within ${timeoutMs} ms`));
        total.abort();
      }, timeoutMs);
    });
    const call = this.policy.execute(async ({ signal }) => {
      // A retry whose backoff outlived the total budget must not reach the upstream.
      signal.throwIfAborted();
      try {
        return await fn(signal);
      } catch (err) {
        // Whatever the call threw once its signal was aborted, the attempt ran out of time.
        if (signal.aborted) throw new TransientUpstreamError(`${name}: attempt timed out`);
        throw err;
      }
    }, total.signal);
    const started = process.hrtime.bigint();
    try {
      const result = await Promise.race([call, deadline]);
      this.options.metrics?.observe('request', elapsedSeconds(started), 'ok');
      return result;
    } catch (err) {
      const failure = this.translate(err);
      this.options.metrics?.observe('request', elapsedSeconds(started), 'error');
      this.options.metrics?.error('request', failureReason(failure));
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  private translate(err: unknown): UpstreamUnavailableError {
    const { name, timeoutMs } = this.options;
    if (err instanceof UpstreamUnavailableError) return err;
    if (err instanceof TaskCancelledError) return new UpstreamTimeoutError(`${name}: no answer within ${timeoutMs} ms`, { cause: err });
    if (err instanceof BrokenCircuitError) return new UpstreamUnavailableError(`${name}: circuit open`, { cause: err });
    return new UpstreamUnavailableError(`${name}: ${describe(err)}`, { cause: err });
  }
}

const CIRCUIT_STATES = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Open]: 'open',
  [CircuitState.Isolated]: 'open',
} as const;

/** The `reason` label of a failed call. */
function failureReason(err: UpstreamUnavailableError): string {
  if (err instanceof UpstreamTimeoutError) return 'timeout';
  if (err.cause instanceof BrokenCircuitError) return 'circuit_open';
  if (err.cause instanceof UpstreamHttpError) return `http_${err.cause.status}`;
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'error';
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}

/** The policy of one upstream with the service's configured limits. */
export function upstreamPolicyFromConfig(
  name: string,
  config: {
    UPSTREAM_TIMEOUT_MS: number;
    UPSTREAM_RETRIES: number;
    UPSTREAM_BREAKER_FAILURES: number;
    UPSTREAM_BREAKER_COOLDOWN_MS: number;
  },
  metrics?: UpstreamMetrics,
): UpstreamPolicy {
  return new UpstreamPolicy({
    name,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    retries: config.UPSTREAM_RETRIES,
    breakerFailures: config.UPSTREAM_BREAKER_FAILURES,
    breakerCooldownMs: config.UPSTREAM_BREAKER_COOLDOWN_MS,
    metrics,
  });
}
