import { Injectable, type NestMiddleware } from '@nestjs/common';
import { CALLER_APP, type SignedRequest } from '@geoaccount/signing';
import type { NextFunction, Response } from 'express';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';

const BUSINESS_PARAMS = ['productId', 'busdepId', 'merId'] as const;

function text(value: unknown, max = 40): string | null {
  return typeof value === 'string' ? value.slice(0, max) : null;
}

/**
 * One structured log line per location request, for accounting: the operation, the app
 * whose signature was verified (null when it was not), the business parameters, the
 * result code and lbsStat actually answered, the HTTP status and the time taken.
 * Never the signature or any secret.
 */
@Injectable()
export class LbsAccountingMiddleware implements NestMiddleware {
  constructor(@InjectPinoLogger('Accounting') private readonly logger: PinoLogger) {}

  use(req: SignedRequest, res: Response, next: NextFunction): void {
    const started = performance.now();
    let body: Record<string, unknown> | undefined;
    const json = res.json.bind(res);
    res.json = (value: unknown) => {
      if (value !== null && typeof value === 'object') body = value as Record<string, unknown>;
      return json(value);
    };
    res.on('finish', () => {
      const query = req.query as Record<string, unknown>;
      const line: Record<string, unknown> = {
        op: req.path.split('/').pop() ?? req.path,
        app: req[CALLER_APP]?.appToken ?? null,
      };
      for (const name of BUSINESS_PARAMS) line[name] = text(query[`param.${name}`]);
      line.code = text(body?.code) ?? null;
      line.lbsStat = text(body?.lbsStat) ?? null;
      line.status = res.statusCode;
      line.ms = Math.round((performance.now() - started) * 100) / 100;
      this.logger.info(line, 'lbs request');
    });
    next();
  }
}
