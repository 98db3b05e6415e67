import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { lbsEnvelope } from '@geoaccount/api';
import { FastPathAdapter, applyHttpDefaults, securityHeaders, setupOpenApi } from '@geoaccount/http';
import { httpTimeoutsOf, useRequestObserver } from '@geoaccount/observability';
import { AppRegistry } from '@geoaccount/signing';
import { AppModule, type LocationAppOptions } from './app.module';
import { type LocationConfig, corsOrigins } from './config/location.config';
import { lbsDirectRoutes } from './lbs/lbs-direct-routes';
import { LOCATION_OPENAPI } from './openapi';

/** Builds the location application with its real wiring (used by main and by the e2e suites). */
export async function createLocationApp(
  config: LocationConfig,
  registry: AppRegistry,
  options: LocationAppOptions = {},
): Promise<INestApplication> {
  // Handlers' JSON answers are written by libs/http's fast path (libs/http/src/fast-path/README.md).
  const app = await NestFactory.create(AppModule.forRoot(config, registry, options), new FastPathAdapter(), {
    bufferLogs: true,
    abortOnError: false,
    bodyParser: false,
  });
  // Every operation is a GET: no body parsers in front of them.
  // main installs the graceful shutdown (drain, then close) instead of Nest's hooks.
  // The operations check their parameters with ParamsPipe (lbs/dto): no DTO class to validate.
  // Slow clients are cut off after HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS.
  applyHttpDefaults(app, lbsEnvelope, { shutdownHooks: false, validationPipe: false, timeouts: httpTimeoutsOf(config) });
  // The web console calls from the account service's origin (docs/contract.md §12): those origins only.
  const origins = corsOrigins(config);
  if (origins.length > 0) app.enableCors({ origin: origins, methods: ['GET', 'HEAD'], maxAge: 600 });
  // JSON logs, request ids, metrics; the API's security headers; /docs. Health, metrics and docs are outside the signed API.
  useRequestObserver(app);
  app.use(securityHeaders());
  // The three operations skip Express's router and Nest's per-request steps, after the middleware above
  // (libs/http/src/fast-path/direct-routes.ts; a request they would refuse is Nest's to answer).
  (app.getHttpAdapter() as FastPathAdapter).serveDirect(lbsDirectRoutes(app));
  setupOpenApi(app, LOCATION_OPENAPI);
  return app;
}
