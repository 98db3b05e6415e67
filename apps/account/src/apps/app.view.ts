import { type AppToken, asAppToken } from '../common/app-scope';
import { type CredentialRecord, credentialState } from '../credentials/credential.record';
import type { AppRecord } from './app.record';

/** A credential as the admin API answers it: never its secret (docs/contract.md §14). */
export interface CredentialView {
  credential_id: string;
  create_time: string;
  state: 'active' | 'revoked' | 'expired';
  expire_time: string;
  last_used_time: string;
}

/** An app as the admin API answers it (docs/contract.md §14). */
export interface AppView {
  app_token: AppToken;
  app_name: string;
  aes_mode: 'gcm' | 'ecb';
  state: 'enabled' | 'disabled';
  source: 'api' | 'config';
  create_time: string;
  credentials: CredentialView[];
}

type Format = (value: Date | null) => string | null;

export function credentialView(c: CredentialRecord, format: Format, now = Date.now()): CredentialView {
  // last_used_time has minute resolution: uses are recorded per minute.
  return {
    credential_id: c.credentialId,
    create_time: format(c.createTime) ?? '',
    state: credentialState(c, now),
    expire_time: format(c.expireTime) ?? '',
    last_used_time: format(c.lastUsedTime) ?? '',
  };
}

export function appView(app: AppRecord, credentials: readonly CredentialRecord[], format: Format): AppView {
  const now = Date.now();
  return {
    app_token: app.appToken,
    app_name: app.appName,
    aes_mode: app.aesMode,
    state: app.state,
    source: 'api',
    create_time: format(app.createTime) ?? '',
    credentials: credentials.map((c) => credentialView(c, format, now)),
  };
}

/** An `APP_CREDENTIALS` app: read-only, its credential kept in the configuration (not listed). */
export function configAppView(appToken: string, aesMode: 'gcm' | 'ecb'): AppView {
  return { app_token: asAppToken(appToken), app_name: '', aes_mode: aesMode, state: 'enabled', source: 'config', create_time: '', credentials: [] };
}

const text = { type: 'string' };
/** `CredentialView` in the OpenAPI document. */
export const CREDENTIAL_SCHEMA = {
  type: 'object',
  properties: {
    credential_id: text,
    create_time: text,
    state: { type: 'string', enum: ['active', 'revoked', 'expired'] },
    expire_time: { type: 'string', description: '`YYYY-MM-DD HH:MM:SS` in the service TZ; `""` unless set.' },
    last_used_time: { type: 'string', description: 'Minute resolution; `""` if never used.' },
  },
  required: ['credential_id', 'create_time', 'state', 'expire_time', 'last_used_time'],
  additionalProperties: false,
};
/** The fields of `AppView` (an answer's own fields, or an item of `app_list`). */
export const APP_FIELDS = {
  app_token: text,
  app_name: text,
  aes_mode: { type: 'string', enum: ['gcm', 'ecb'] },
  state: { type: 'string', enum: ['enabled', 'disabled'] },
  source: { type: 'string', enum: ['api', 'config'] },
  create_time: text,
  credentials: { type: 'array', items: { $ref: '#/components/schemas/AdminCredential' } },
};
export const APP_SCHEMA = { type: 'object', properties: APP_FIELDS, required: Object.keys(APP_FIELDS), additionalProperties: false };
/** The one-time answer of a new credential. */
export const ISSUED_CREDENTIAL_SCHEMA = {
  type: 'object',
  properties: { credential_id: text, secret: text, aes_key: text },
  required: ['credential_id', 'secret', 'aes_key'],
  additionalProperties: false,
};
