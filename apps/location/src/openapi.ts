import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { type OpenApiOptions, buildOpenApiDocument } from '@geoaccount/http';
import { AppRegistry } from '@geoaccount/signing';
import { AppModule } from './app.module';
import { loadLocationConfig } from './config/location.config';

/** The document options of the location service. */
export const LOCATION_OPENAPI: OpenApiOptions = {
  title: 'Location service',
  version: '1.0.0',
  description:
    'Reverse geocoding, address lookup and base-station location for client apps. Every operation under ' +
    '`/lbsapi/api` is signed (docs/signing.md); answers are JSON with `code`, `resultDesc` and `lbsStat` ' +
    '(docs/location-api.md).',
  servers: [
    {
      url: '{scheme}://{host}',
      description: 'The location service',
      variables: { scheme: { default: 'http', enum: ['http', 'https'] }, host: { default: '127.0.0.1:3002' } },
    },
  ],
  signature: {
    security: (path) => (path.startsWith('/lbsapi/api/') ? [{ lbsSignature: [] }] : []),
    schemes: {
      lbsSignature: {
        type: 'apiKey',
        in: 'query',
        name: 'signature',
        description:
          'docs/contract.md §3: `signature` = lowercase hex HMAC-SHA256, keyed with the secret of the app named by ' +
          '`userToken`, of `operation + ":" + the values of the operation\'s own parameters in alphabetical order of ' +
          'name, joined by ":"` (absent ones empty; a value containing ":" is refused). See docs/signing.md.',
      },
    },
  },
};

/**
 * The document `/docs-json` serves, built without Redis or an upstream: the application is
 * created in preview mode (its modules resolved, no provider instantiated, nothing connected).
 */
export async function locationOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadLocationConfig({ LOG_LEVEL: 'silent' });
  const app = await NestFactory.create(AppModule.forRoot(config, new AppRegistry([])), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return buildOpenApiDocument(app, LOCATION_OPENAPI);
  } finally {
    await app.close();
  }
}
