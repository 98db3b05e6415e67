import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { type HeaderStep, recordHeaders, writeHeaderBlock } from './fast-path/header-block';
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
 * The headers of every API answer, in the order they are written: `Cache-Control: no-store`,
 * then helmet's with `API_SECURITY_HEADERS`, computed once by running helmet against a
 * recording response (fast path "header block", `fast-path/header-block.ts`).
 */
export function apiHeaderBlock(): HeaderStep[] {
  return [['Cache-Control', 'no-store'], ...recordHeaders(helmet(API_SECURITY_HEADERS))];
}

/**
 * `API_SECURITY_HEADERS` and `Cache-Control: no-store` on every answer, written as one
 * precomputed block, except the interactive documentation page, which gets helmet's
 * defaults (its scripts, styles and images are its own).
 */
export function securityHeaders(): RequestHandler {
  const block = apiHeaderBlock();
  const page = helmet();
  const docs = `/${DOCS_PATH}`;
  const docsJson = `/${DOCS_JSON_PATH}`;
  return (req: Request, res: Response, next: NextFunction) => {
    // The documentation page only: most answers skip the path test's URL parse.
    if (req.url.startsWith(docs)) {
      const path = req.path;
      if (path.startsWith(docs) && !path.startsWith(docsJson)) {
        page(req, res, next);
        return;
      }
    }
    writeHeaderBlock(res, block);
    next();
  };
}
