import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { accountEnvelope, applyHttpDefaults } from '@geoaccount/api';
import { AppRegistry } from '@geoaccount/signing';
import { AppModule } from './app.module';
import type { AccountConfig } from './config/account.config';

/** Builds the account application with its real wiring (used by main and by the e2e suites). */
export async function createAccountApp(config: AccountConfig, registry: AppRegistry): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(config, registry), { bodyParser: false, logger: ['error', 'warn'] });
  applyHttpDefaults(app, accountEnvelope);
  return app;
}
