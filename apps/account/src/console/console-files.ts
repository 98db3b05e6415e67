import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import express, { type Request, type Response } from 'express';

export interface ConsoleOptions {
  /** The built console (`apps/console/dist`). */
  dir: string;
  /** Where the browser reaches the location service (published as `/console/config.json`). */
  locationUrl: string;
}

/** `apps/console/dist` next to this service's `dist` (the workspace, and the image's same layout). */
export function defaultConsoleDir(): string {
  return join(__dirname, '../../../console/dist');
}

/**
 * The console's Content-Security-Policy: its own scripts, styles and data only, calls to this
 * service and to the location service; no inline script, no other origin, no framing.
 */
export function consoleCsp(locationUrl: string): string {
  const location = new URL(locationUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${location}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Serves the web console at `/console/` (docs/contract.md §12): static files, no signature, and
 * `/console/config.json` with the location service's URL. Mounted before Nest's routes, so the
 * signed API and its guards never see these paths; a missing file falls through to the 404 of the API.
 */
export function serveConsole(app: INestApplication, options: ConsoleOptions): void {
  const logger = new Logger('Console');
  if (!existsSync(join(options.dir, 'index.html'))) {
    logger.warn(`no console at ${options.dir} (build it with \`pnpm nx run console:build\`): /console/ answers 404`);
    return;
  }
  const csp = consoleCsp(options.locationUrl);
  const config = JSON.stringify({ locationUrl: options.locationUrl });
  const pageHeaders = (res: Response, file: string) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Referrer-Policy', 'no-referrer');
    // Hashed asset names never change; the page and the map are revalidated.
    res.setHeader('Cache-Control', file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  };
  app.use('/console/config.json', (req: Request, res: Response) => {
    res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(config);
  });
  app.use('/console', (req: Request, res: Response, next: () => void) => {
    if (req.originalUrl === '/console') return res.redirect(301, '/console/');
    next();
  });
  app.use('/console', express.static(options.dir, { index: 'index.html', redirect: false, setHeaders: pageHeaders }));
}
