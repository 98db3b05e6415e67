import { NestFactory } from '@nestjs/core';
import type { INestApplication, LogLevel } from '@nestjs/common';
import { accountEnvelope, applyHttpDefaults } from '@geoaccount/api';
import { applyOperations } from '@geoaccount/observability';
import { AppRegistry } from '@geoaccount/signing';
import { AppModule } from './app.module';
import { ACCOUNT_OPENAPI } from './openapi';
import type { AccountConfig } from './config/account.config';
import { defaultConsoleDir, serveConsole } from './console/console-files';

/** Builds the account application with its real wiring (used by main and by the e2e suites). */
export async function createAccountApp(config: AccountConfig, registry: AppRegistry): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(config, registry), {
    bodyParser: false,
    logger: nestLogLevels(config.LOG_LEVEL),
    bufferLogs: true,
  });
  // main installs the graceful shutdown (drain, then close) instead of Nest's hooks.
  applyHttpDefaults(app, accountEnvelope, { shutdownHooks: false });
  // JSON logs, request ids, metrics, helmet, /docs; health, metrics and docs are outside the signed API.
  applyOperations(app, { openApi: ACCOUNT_OPENAPI });
  serveConsole(app, { dir: config.CONSOLE_DIR ?? defaultConsoleDir(), locationUrl: config.CONSOLE_LOCATION_URL });
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
