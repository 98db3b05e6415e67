import { Injectable, type NestMiddleware } from '@nestjs/common';
import { sentBody } from '@geoaccount/http';
import { type AppLogger, InjectAppLogger, currentRequestId } from '@geoaccount/observability';
import { CALLER_APP, type SignedRequest } from '@geoaccount/signing';
import type { NextFunction, Request, Response } from 'express';

const BUSINESS_PARAMS = ['productId', 'busdepId', 'merId'] as const;

function text(value: unknown, max = 40): string | null {
  return typeof value === 'string' ? value.slice(0, max) : null;
}

/**
 * The operation of the route that served the request, from the route Express matched (the
 * path the controller declares), not the path typed: routing ignores case and a trailing
 * slash, so `/lbsapi/api/lbsquery` and `/lbsapi/api/lbsQuery/` are `lbsQuery` too.
 * Null when no route matched.
 */
function operationOf(req: Request): string | null {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? (route.path.split('/').pop() ?? null) : null;
}

/** The accounting lines are `info`: below that level the middleware is not mounted at all. */
export function accountingOn(logger: AppLogger): boolean {
  return logger.isLevelEnabled('info');
}

/**
 * One structured log line per location request, for accounting: the operation, the app
 * whose signature was verified (null when it was not), the business parameters, the
 * result code and lbsStat actually answered, the HTTP status and the time taken.
 * Never the signature or any secret. Mounted only when `info` is on (see `LbsModule`).
 */
@Injectable()
export class LbsAccountingMiddleware implements NestMiddleware {
  private readonly logger: AppLogger;

  constructor(@InjectAppLogger() logger: AppLogger) {
    this.logger = logger.child({ context: 'Accounting' });
  }

  use(req: SignedRequest, res: Response, next: NextFunction): void {
    const started = performance.now();
    const requestId = currentRequestId();
    res.once('finish', () => {
      const query = req.query as Record<string, unknown>;
      const body = sentBody(res) as Record<string, unknown> | undefined;
      const line: Record<string, unknown> = {
        requestId,
        op: operationOf(req),
        app: req[CALLER_APP]?.appToken ?? null,
      };
      for (const name of BUSINESS_PARAMS) line[name] = text(query[`param.${name}`]);
      line.code = text(body?.code);
      line.lbsStat = text(body?.lbsStat);
      line.status = res.statusCode;
      line.ms = Math.round((performance.now() - started) * 100) / 100;
      this.logger.info(line, 'lbs request');
    });
    next();
  }
}
