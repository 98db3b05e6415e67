import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { type OpenApiOptions, buildOpenApiDocument } from '@geoaccount/http';
import { AppRegistry } from '@geoaccount/signing';
import { AppModule } from './app.module';
import { APP_SCHEMA, CREDENTIAL_SCHEMA } from './apps/app.view';
import { ADMIN_AUDIT_EVENT_SCHEMA, AUDIT_EVENT_SCHEMA } from './audit/audit-events.service';
import { OPERATOR_SCHEMA } from './operators/operator.view';
import { AUTH_SUMMARY_SCHEMA, GROUP_LIST_ITEM_SCHEMA } from './auth-groups/auth-group.view';
import { AUTH_LIST_ITEM_SCHEMA } from './auths/auth.view';
import { USER_SCHEMA } from './users/user.view';
import { ACCOUNT_API_PREFIX } from './common/account-api';
import { loadAccountConfig } from './config/account.config';

/** The document options of the account service. */
export const ACCOUNT_OPENAPI: OpenApiOptions = {
  title: 'Account service',
  version: '1.0.1',
  description:
    'Auths, auth groups, users and login of client apps. Every operation under `/account/v1.0.1` is signed ' +
    '(docs/signing.md); answers are JSON with `response_code` and `response_message` (docs/account-api.md).',
  // The admin and internal APIs take JSON only.
  formBodies: (path) => path.startsWith(`/${ACCOUNT_API_PREFIX}/`),
  otherSecurity: {
    schemes: {
      adminToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'docs/contract.md §14: `ADMIN_TOKEN` (the operator `admin`), or the token of an operator session.',
      },
      adminSession: {
        type: 'apiKey',
        in: 'cookie',
        name: 'admin_session',
        description: 'The session cookie of `POST /admin/v1/sessions`; changes also send its `X-CSRF-Token` header.',
      },
      internalToken: { type: 'http', scheme: 'bearer', description: '`INTERNAL_TOKEN`, shared by the services.' },
    },
    of: (path) =>
      path === '/admin/v1/sessions' ? [] : path.startsWith('/admin/') ? ['adminToken', 'adminSession'] : path.startsWith('/internal/') ? ['internalToken'] : [],
  },
  schemas: {
    AuthListItem: AUTH_LIST_ITEM_SCHEMA,
    GroupListItem: GROUP_LIST_ITEM_SCHEMA,
    AuthSummary: AUTH_SUMMARY_SCHEMA,
    User: USER_SCHEMA,
    AuditEvent: AUDIT_EVENT_SCHEMA,
    AdminApp: APP_SCHEMA,
    AdminCredential: CREDENTIAL_SCHEMA,
    AdminOperator: OPERATOR_SCHEMA,
    AdminAuditEvent: ADMIN_AUDIT_EVENT_SCHEMA,
  },
  servers: [
    {
      url: '{scheme}://{host}',
      description: 'The account service',
      variables: { scheme: { default: 'http', enum: ['http', 'https'] }, host: { default: '127.0.0.1:3001' } },
    },
  ],
  signature: {
    name: 'appSignature',
    signed: (path) => path.startsWith(`/${ACCOUNT_API_PREFIX}/`),
    scheme: {
      type: 'apiKey',
      in: 'query',
      name: 'signature',
      description:
        'CONTRACT §2: `signature` = lowercase hex HMAC-SHA256, keyed with the app secret, of ' +
        '`UPPER(method) + app_token + path + "?" + sorted name=value pairs` (every query or body field except ' +
        '`app_token` and `signature`, plus the path ids), sent with `app_token`, `timestamp` and an optional `nonce` ' +
        'as query parameters (GET) or body fields (POST, PUT). See docs/signing.md.',
    },
  },
};

/**
 * The document `/docs-json` serves, built without a database: the application is created in
 * preview mode (its modules resolved, no provider instantiated, nothing connected).
 */
export async function accountOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadAccountConfig({ DATABASE_URL: 'postgres://127.0.0.1:1/unused', LOG_LEVEL: 'silent' });
  const app = await NestFactory.create(AppModule.forRoot(config, new AppRegistry([]), { byApp: new Map() }), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return buildOpenApiDocument(app, ACCOUNT_OPENAPI);
  } finally {
    await app.close();
  }
}
