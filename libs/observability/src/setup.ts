import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { httpObserver, writeJsonAnswers } from './http-observer';
import { PinoNestLogger } from './logging';
import { Metrics } from './metrics';
import { APP_LOGGER, type AppLogger, QUIET_PATHS } from './observability.module';
import { DOCS_JSON_PATH, DOCS_PATH, type OpenApiOptions, setupOpenApi } from './openapi';
import { ShutdownState } from './shutdown';

export interface OperationsOptions {
  /** Serve `/docs` and `/docs-json`. */
  openApi?: OpenApiOptions;
}

/**
 * The HTTP side of `ObservabilityModule`, applied before the application starts listening:
 * pino for Nest's own logs, the request observer (request id, access line, metrics,
 * draining), the security headers, and the OpenAPI document.
 * Create the application with `bufferLogs: true` so that start-up logs go through pino too.
 */
export function applyOperations(app: INestApplication, options: OperationsOptions = {}): void {
  useRequestObserver(app);
  app.use(securityHeaders());
  if (options.openApi) setupOpenApi(app, options.openApi);
}

/**
 * Nest's logger on pino, JSON answers written by `writeJsonAnswers`, and the request
 * observer wired to `ObservabilityModule`'s logger, metrics, shutdown state and quiet paths.
 */
export function useRequestObserver(app: INestApplication): void {
  app.useLogger(app.get(PinoNestLogger));
  writeJsonAnswers(app);
  app.use(
    httpObserver({
      logger: app.get<AppLogger>(APP_LOGGER),
      metrics: app.get(Metrics),
      shutdown: app.get(ShutdownState),
      quietPaths: app.get<readonly string[]>(QUIET_PATHS),
    }),
  );
}

/**
 * Headers of a JSON API (OWASP REST Security): nothing of an answer may be framed, sniffed,
 * run as a document or cached, and HTTPS is sticky. The HTML-page headers of helmet's
 * defaults (opener and embedder policies, DNS prefetch, IE and Flash switches) say nothing
 * to an API client and cost a header each on every answer.
 */
export const API_SECURITY_HEADERS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  xContentTypeOptions: true,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' },
  xPermittedCrossDomainPolicies: false,
  xPoweredBy: false,
  xXssProtection: false,
};

/**
 * `API_SECURITY_HEADERS` and `Cache-Control: no-store` on every answer, except the
 * interactive documentation page, which gets helmet's defaults (its scripts, styles and
 * images are its own).
 */
export function securityHeaders(): RequestHandler {
  const api = helmet(API_SECURITY_HEADERS);
  const page = helmet();
  const docs = `/${DOCS_PATH}`;
  const docsJson = `/${DOCS_JSON_PATH}`;
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    if (path.startsWith(docs) && !path.startsWith(docsJson)) {
      page(req, res, next);
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    api(req, res, next);
  };
}
