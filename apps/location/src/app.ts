import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { lbsEnvelope, applyHttpDefaults } from '@geoaccount/api';
import { AppRegistry } from '@geoaccount/signing';
import { AppModule } from './app.module';
import type { LocationConfig } from './config/location.config';

/** Builds the location application with its real wiring (used by main and by the e2e suites). */
export async function createLocationApp(config: LocationConfig, registry: AppRegistry): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(config, registry), { logger: ['error', 'warn'] });
  applyHttpDefaults(app, lbsEnvelope);
  return app;
}
