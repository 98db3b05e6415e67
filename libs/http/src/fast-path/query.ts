import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

/**
 * Fast path "query parsed once" (3 reads of a signed lbsQuery's query: 6.7 → 2.4 µs,
 * `bench/fast-path.mjs`): Express 5's `req.query` is a getter that parses the URL again on
 * every read, and a request is read several times (signature guard, parameter pipe, rate
 * limit, logs). This keeps the first parse as a plain property.
 */
export function parseQueryOnce(req: Request, _res: Response, next: NextFunction): void {
  Object.defineProperty(req, 'query', { value: req.query, writable: true, enumerable: true, configurable: true });
  next();
}

/**
 * The plain query parser (`node:querystring`: no nested objects; a repeated parameter becomes
 * an array, which the parameter checks refuse) run once per request (`parseQueryOnce`).
 */
export function useQueryParsedOnce(app: NestExpressApplication): void {
  app.set('query parser', 'simple');
  app.use(parseQueryOnce);
}
