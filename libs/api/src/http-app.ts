import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { EnvelopeStyle } from './envelope';
import { ApiExceptionFilter } from './exception-filter';
import { createValidationPipe } from './validation';

export interface HttpDefaultsOptions {
  /**
   * Let Nest close the application on SIGTERM/SIGINT (default). Turn it off when the
   * process installs its own graceful shutdown (drain first, then close).
   */
  shutdownHooks?: boolean;
}

/**
 * The HTTP defaults both services share: the envelope filter for every error, the
 * validation pipe, no `X-Powered-By`, the plain query parser (a repeated parameter becomes
 * an array and is refused), and shutdown hooks so adapters close their connections.
 */
export function applyHttpDefaults(app: INestApplication, style: EnvelopeStyle, options: HttpDefaultsOptions = {}): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.set('query parser', 'simple');
  express.set('etag', false);
  app.useGlobalFilters(new ApiExceptionFilter(style));
  app.useGlobalPipes(createValidationPipe());
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
}
