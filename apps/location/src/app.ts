import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { lbsEnvelope, applyHttpDefaults } from '@geoaccount/api';
import { AppRegistry } from '@geoaccount/signing';
import { Logger } from 'nestjs-pino';
import { AppModule, type LocationAppOptions } from './app.module';
import type { LocationConfig } from './config/location.config';

/** Builds the location application with its real wiring (used by main and by the e2e suites). */
export async function createLocationApp(config: LocationConfig, registry: AppRegistry, options: LocationAppOptions = {}): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(config, registry, options), { bufferLogs: true, abortOnError: false });
  app.useLogger(app.get(Logger));
  applyHttpDefaults(app, lbsEnvelope);
  return app;
}
