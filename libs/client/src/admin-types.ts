/**
 * The answers of the admin API (`/admin/v1`, docs/contract.md §14), field for field as the
 * account service's OpenAPI document declares them.
 */

export type AdminRole = 'admin' | 'app_admin' | 'auditor';

/** A credential of an app as listed: never its secret. */
export interface AdminCredential {
  credential_id: string;
  create_time: string;
  state: 'active' | 'revoked' | 'expired';
  /** `""` unless set (by `retire_others_in`). */
  expire_time: string;
  /** Minute resolution, uses on both services; `""` if never used. */
  last_used_time: string;
}

export interface AdminApp {
  app_token: string;
  app_name: string;
  aes_mode: 'gcm' | 'ecb';
  state: 'enabled' | 'disabled';
  /** `config`: an app of `APP_CREDENTIALS`, read-only. */
  source: 'api' | 'config';
  create_time: string;
  credentials: AdminCredential[];
}

/** A new credential: the only answer that ever carries its secret and AES key. */
export interface IssuedCredential {
  credential_id: string;
  secret: string;
  aes_key: string;
}

export interface AdminOperator {
  login: string;
  role: AdminRole;
  apps: string[];
  state: 'enabled' | 'disabled';
  directory: boolean;
  /** Locked by failed sign-ins (a `PATCH` with `"state":"enabled"` clears it). */
  locked: boolean;
  create_time: string;
}

/** An open session (`POST /admin/v1/sessions`, `GET /admin/v1/sessions/current`). */
export interface AdminSession {
  operator: string;
  role: AdminRole;
  apps: string[];
}

/** An audit event (docs/contract.md §10 fields); admin-level events have `app_token` `""`. */
export interface AdminAuditEvent {
  event_id: string;
  event_time: string;
  app_token: string;
  action: string;
  resource_type: string;
  resource_id: string;
  operator: string;
  request_id: string;
  client_ip: string;
  result_code: string;
  changes: string;
}

/** The account envelope of every admin answer. */
export interface AdminEnvelope {
  response_code: string;
  response_message: string;
}

export interface AdminAnswers {
  createApp: AdminEnvelope & AdminApp & { credential: IssuedCredential };
  listApps: AdminEnvelope & { count: string; app_list: AdminApp[] };
  getApp: AdminEnvelope & AdminApp;
  modifyApp: AdminEnvelope & AdminApp;
  issueCredential: AdminEnvelope & IssuedCredential;
  revokeCredential: AdminEnvelope;
  createOperator: AdminEnvelope & AdminOperator;
  listOperators: AdminEnvelope & { count: string; operator_list: AdminOperator[] };
  getOperator: AdminEnvelope & AdminOperator;
  modifyOperator: AdminEnvelope & AdminOperator;
  clearLockout: AdminEnvelope;
  auditEvents: AdminEnvelope & { count: string; event_list: AdminAuditEvent[]; next_event_id: string };
  openSession: AdminEnvelope & AdminSession;
  currentSession: AdminEnvelope & AdminSession;
  closeSession: AdminEnvelope;
}

/** Result codes of the admin API (docs/contract.md §14). */
export const ADMIN_CODES = {
  SUCCESS: '90000',
  INVALID_FIELD: '90100',
  UNAUTHORIZED: '90401',
  FORBIDDEN: '90403',
  NO_SUCH_APP: '30101',
  TWO_ACTIVE_CREDENTIALS: '30120',
  CONFIG_APP: '30130',
  NO_SUCH_CREDENTIAL: '30201',
  NO_SUCH_OPERATOR: '30301',
  OPERATOR_EXISTS: '30310',
  NOT_LOCKED: '30401',
  OPERATOR_LOCKED: '30402',
} as const;
