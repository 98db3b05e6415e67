import { Logger } from '@nestjs/common';
import { UpstreamUnavailableError } from './upstream-errors';
import { UpstreamHttpError } from './upstream-http';
import { TransientUpstreamError, UpstreamPolicy, UpstreamTimeoutError, isTransientFailure } from './upstream-policy';

const policy = (over: Partial<ConstructorParameters<typeof UpstreamPolicy>[0]> = {}) =>
  new UpstreamPolicy({ name: 'test', timeoutMs: 500, retries: 2, breakerFailures: 100, breakerCooldownMs: 1000, ...over });

describe('UpstreamPolicy', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('tells transient failures (5xx, resets, timeouts, marked) from the others', () => {
    expect(isTransientFailure(new UpstreamHttpError(502, 'x'))).toBe(true);
    expect(isTransientFailure(new UpstreamHttpError(404, 'x'))).toBe(false);
    expect(isTransientFailure(new UpstreamHttpError(429, 'x'))).toBe(false);
    expect(isTransientFailure(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isTransientFailure(new TransientUpstreamError('busy'))).toBe(true);
    expect(isTransientFailure(new UpstreamUnavailableError('bad key'))).toBe(false);
  });

  it('retries transient failures and returns the first success', async () => {
    let calls = 0;
    const result = await policy().run(() => {
      calls++;
      return calls < 3 ? Promise.reject(new UpstreamHttpError(503, 'x')) : Promise.resolve('ok');
    });
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });

  it('does not retry other failures, and reports them as UpstreamUnavailableError', async () => {
    let calls = 0;
    const run = policy().run(() => {
      calls++;
      return Promise.reject(new UpstreamHttpError(403, 'x'));
    });
    await expect(run).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(run).rejects.toThrow('test: x answered HTTP 403');
    expect(calls).toBe(1);
  });

  it('bounds the total time, retries included, and aborts the call', async () => {
    let aborted = 0;
    const started = performance.now();
    const run = policy({ timeoutMs: 300 }).run(
      (signal) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => {
            aborted++;
            reject(new Error('aborted'));
          });
        }),
    );
    await expect(run).rejects.toBeInstanceOf(UpstreamTimeoutError);
    const took = performance.now() - started;
    // not before its limit; late only by what a loaded machine delays a timer (the call itself never ends)
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(300 + 10_000);
    expect(aborted).toBeGreaterThanOrEqual(1);
  });

  it('opens the circuit after consecutive failures: calls are refused without running', async () => {
    const p = policy({ retries: 0, breakerFailures: 3, breakerCooldownMs: 60_000 });
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new UpstreamHttpError(500, 'x'));
    };
    for (let i = 0; i < 3; i++) await expect(p.run(failing)).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(p.run(failing)).rejects.toThrow('test: circuit open');
    expect(calls).toBe(3);
  });
});
