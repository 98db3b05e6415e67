import { NestFactory } from '@nestjs/core';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { accountEnvelope } from '@geoaccount/api';
import { PATH_ID_FIELDS } from './common/account-codes';
import { FastPathAdapter, apiCors, applyHttpDefaults, securityHeaders, setupOpenApi } from '@geoaccount/http';
import { httpTimeoutsOf, useRequestObserver } from '@geoaccount/observability';
import { AppRegistry } from '@geoaccount/signing';
import { AppModule } from './app.module';
import { ACCOUNT_OPENAPI } from './openapi';
import { type AccountConfig, accountCorsOrigins } from './config/account.config';
import { ACCOUNT_API_PREFIX } from './common/account-api';
import { defaultConsoleDir, serveConsole } from './console/console-files';
import { CONSOLE_API_PREFIX, ConsoleProxy } from './console-proxy/console-proxy';
import type { DirectoryConfig } from './config/directory.config';
import { accountReadRoutes } from './common/account-direct-routes';
import { AuthGroupsController } from './auth-groups/auth-groups.controller';
import { AuthsController } from './auths/auths.controller';
import { PermissionsController } from './permissions/permissions.controller';
import { UsersController } from './users/users.controller';

/**
 * Builds the account application with its real wiring (used by main and by the e2e suites);
 * `directories`: the directories of domain logins (none by default).
 */
export async function createAccountApp(
  config: AccountConfig,
  registry: AppRegistry,
  directories: DirectoryConfig = { byApp: new Map() },
): Promise<INestApplication> {
  // Handlers' JSON answers are written by libs/http's fast path (libs/http/src/fast-path/README.md).
  const app = await NestFactory.create(AppModule.forRoot(config, registry, directories), new FastPathAdapter(), {
    bodyParser: false,
    logger: nestLogLevels(config.LOG_LEVEL),
    bufferLogs: true,
  });
  // main installs the graceful shutdown (drain, then close) instead of Nest's hooks; slow
  // clients are cut off after HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS.
  applyHttpDefaults(app, accountEnvelope, {
    shutdownHooks: false,
    timeouts: httpTimeoutsOf(config),
    validationPipe: { envelopeFields: PATH_ID_FIELDS },
  });
  // JSON logs, request ids, metrics; the API's security headers; /docs. Health, metrics and docs are outside the signed API.
  useRequestObserver(app);
  // CORS on the signed API only (docs/contract.md §12): never the admin API, the console, health or metrics.
  app.use(apiCors(`/${ACCOUNT_API_PREFIX}/`, accountCorsOrigins(config)));
  app.use(securityHeaders());
  setupOpenApi(app, ACCOUNT_OPENAPI);
  // The console's calls on an app's data, signed here for the operator's session (docs/contract.md §12).
  app.use(CONSOLE_API_PREFIX, app.get(ConsoleProxy).handler());
  serveConsole(app, { dir: config.CONSOLE_DIR ?? defaultConsoleDir(), locationUrl: config.CONSOLE_LOCATION_URL });
  // The reads of one record, past Express's router and Nest's pipeline (common/account-direct-routes.ts).
  (app.getHttpAdapter() as FastPathAdapter).serveDirect(
    accountReadRoutes(app, [UsersController, AuthsController, AuthGroupsController, PermissionsController]),
  );
  return app;
}

/** Nest's own log levels for `LOG_LEVEL` (`silent`: none). */
function nestLogLevels(level: string): LogLevel[] | false {
  switch (level) {
    case 'silent':
      return false;
    case 'fatal':
      return ['fatal'];
    case 'error':
      return ['fatal', 'error'];
    case 'debug':
    case 'trace':
      return ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
    default:
      return ['fatal', 'error', 'warn'];
  }
}
