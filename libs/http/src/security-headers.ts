import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { DOCS_JSON_PATH, DOCS_PATH } from './openapi';

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
