import { HttpException } from '@nestjs/common';
import type { HealthCheckResult, HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { Response } from 'express';
import type { ShutdownState } from '@geoaccount/http';

/** Readiness indicator `shutdown`: down from the first shutdown signal on. */
export function shutdownIndicator(state: ShutdownState, indicators: HealthIndicatorService): () => HealthIndicatorResult {
  return () => {
    const session = indicators.check('shutdown');
    return state.shuttingDown ? session.down({ message: 'shutting down' }) : session.up();
  };
}

/**
 * Runs a terminus check and answers its result as is: 200 when ok or degraded, 503 with the
 * same body when a check failed (instead of letting the API's exception filter turn the 503
 * into a result-code envelope, which is meant for the signed API, not for probes).
 */
export async function healthResponse(res: Response, run: () => Promise<HealthCheckResult>): Promise<HealthCheckResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof HttpException && err.getStatus() === 503) {
      res.status(503);
      return err.getResponse() as HealthCheckResult;
    }
    throw err;
  }
}
