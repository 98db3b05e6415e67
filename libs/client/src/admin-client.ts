import { ApiResponse, type TransportOptions } from './http';
import type { AdminAnswers, AdminRole } from './admin-types';

export interface AdminClientOptions extends TransportOptions {
  /** The account service, e.g. `http://127.0.0.1:3001`. */
  baseUrl: string;
  /** `Authorization: Bearer` token: `ADMIN_TOKEN` (automation, bootstrap). Omit to sign in with `openSession`. */
  token?: string;
}

/** The session a client holds after `openSession`: its cookie (outside a browser) and CSRF token. */
export interface AdminSessionState {
  /** `name=value` of the session cookie; a browser keeps it by itself (HttpOnly), so it stays unset there. */
  cookie?: string;
  csrfToken?: string;
}

export interface CreateOperatorInput {
  login: string;
  role: AdminRole;
  apps?: string[];
  password?: string;
  directory?: boolean;
}

export interface ModifyOperatorInput {
  role?: AdminRole;
  apps?: string[];
  state?: 'enabled' | 'disabled';
  password?: string;
}

/** The audit query of docs/contract.md §10, plus `app_token`. */
export type AdminAuditQuery = Partial<
  Record<
    'app_token' | 'resource_type' | 'resource_id' | 'action' | 'operator' | 'from_time' | 'to_time' | 'after_event_id' | 'page_size',
    string
  >
>;

const PREFIX = '/admin/v1';
const RETRIED_STATUS = new Set([502, 503, 504]);
const seg = encodeURIComponent;

/**
 * A client of the admin API (docs/contract.md §14): apps, credentials, operators, lockouts and
 * the admin audit trail, authenticated by a bearer token (`ADMIN_TOKEN`) or by an operator's
 * session (`openSession`: the cookie, and the `X-CSRF-Token` header on every change). JSON
 * bodies; each call answers an `ApiResponse` whose `.ok()` gives the typed body of a success or
 * throws an `ApiError` carrying the status and `response_code` (e.g. 409 `30120`).
 */
export class AdminClient {
  private session: AdminSessionState = {};

  constructor(readonly options: AdminClientOptions) {}

  /** The session held (cookie and CSRF token), e.g. to hand to another client. */
  get sessionState(): Readonly<AdminSessionState> {
    return this.session;
  }

  /** Sends one request; `body` is JSON. A GET is retried after a network error or a 502 / 503 / 504, like the other clients. */
  async request<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: object,
    query: Record<string, string | undefined> = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.token !== undefined) headers.Authorization = `Bearer ${this.options.token}`;
    if (this.session.cookie !== undefined) headers.Cookie = this.session.cookie;
    if (method !== 'GET' && this.session.csrfToken !== undefined) headers['X-CSRF-Token'] = this.session.csrfToken;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let url = `${this.options.baseUrl.replace(/\/+$/, '')}${PREFIX}${path}`;
    const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    if (qs) url += `?${qs}`;
    const retries = method === 'GET' ? (this.options.retries ?? 2) : 0;
    let delay = this.options.retryDelayMs ?? 200;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await (this.options.fetch ?? fetch)(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await res.text();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the text is the body
        }
        if (attempt >= retries || !RETRIED_STATUS.has(res.status)) return new ApiResponse<T>(res.status, parsed as T & Record<string, unknown>, res.headers, 'account');
      } catch (err) {
        // fetch's network failures are TypeErrors (by name: they may come from another realm)
        if (attempt >= retries || (err as { name?: unknown } | null)?.name !== 'TypeError') throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }

  // --- sessions -------------------------------------------------------------------------

  /** Signs an operator in; on 201 the client holds the session (cookie and CSRF token) for the next calls. */
  async openSession(login: string, password: string): Promise<ApiResponse<AdminAnswers['openSession']>> {
    const res = await this.request<AdminAnswers['openSession']>('POST', '/sessions', { login, password });
    if (res.status === 201) {
      const cookie = /^([^=;\s]+=[^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
      this.session = { cookie, csrfToken: res.headers.get('x-csrf-token') ?? undefined };
    }
    return res;
  }

  /** Who the client acts as (with a session: its CSRF token again, which the client keeps). */
  async currentSession(): Promise<ApiResponse<AdminAnswers['currentSession']>> {
    const res = await this.request<AdminAnswers['currentSession']>('GET', '/sessions/current');
    const csrf = res.headers.get('x-csrf-token');
    if (csrf) this.session = { ...this.session, csrfToken: csrf };
    return res;
  }

  /** Ends the session and forgets it. */
  async closeSession(): Promise<ApiResponse<AdminAnswers['closeSession']>> {
    const res = await this.request<AdminAnswers['closeSession']>('DELETE', '/sessions/current');
    this.session = {};
    return res;
  }

  // --- apps and credentials ------------------------------------------------------------

  /** 201: the app and its first credential (the only time its secret and AES key are answered). */
  createApp(input: { app_name: string; aes_mode?: 'gcm' | 'ecb' }) {
    return this.request<AdminAnswers['createApp']>('POST', '/apps', input);
  }

  listApps() {
    return this.request<AdminAnswers['listApps']>('GET', '/apps');
  }

  getApp(appToken: string) {
    return this.request<AdminAnswers['getApp']>('GET', `/apps/${seg(appToken)}`);
  }

  modifyApp(appToken: string, input: { app_name?: string; state?: 'enabled' | 'disabled' }) {
    return this.request<AdminAnswers['modifyApp']>('PATCH', `/apps/${seg(appToken)}`, input);
  }

  disableApp(appToken: string) {
    return this.modifyApp(appToken, { state: 'disabled' });
  }

  enableApp(appToken: string) {
    return this.modifyApp(appToken, { state: 'enabled' });
  }

  /** 201: a new credential; with `retire_others_in` (60-2592000 s) the other active one expires then. 409 30120 when two are active. */
  issueCredential(appToken: string, input: { retire_others_in?: number } = {}) {
    return this.request<AdminAnswers['issueCredential']>('POST', `/apps/${seg(appToken)}/credentials`, input);
  }

  revokeCredential(appToken: string, credentialId: string) {
    return this.request<AdminAnswers['revokeCredential']>('DELETE', `/apps/${seg(appToken)}/credentials/${seg(credentialId)}`);
  }

  /** Clears a locked user login id of an app (404 30401 when it is not locked). */
  clearLockout(appToken: string, userLoginId: string) {
    return this.request<AdminAnswers['clearLockout']>('DELETE', `/apps/${seg(appToken)}/lockouts/${seg(userLoginId)}`);
  }

  // --- operators -----------------------------------------------------------------------

  createOperator(input: CreateOperatorInput) {
    return this.request<AdminAnswers['createOperator']>('POST', '/operators', input);
  }

  listOperators() {
    return this.request<AdminAnswers['listOperators']>('GET', '/operators');
  }

  getOperator(login: string) {
    return this.request<AdminAnswers['getOperator']>('GET', `/operators/${seg(login)}`);
  }

  /** `"state":"enabled"` also clears the operator's sign-in lock. */
  modifyOperator(login: string, input: ModifyOperatorInput) {
    return this.request<AdminAnswers['modifyOperator']>('PATCH', `/operators/${seg(login)}`, input);
  }

  // --- audit ---------------------------------------------------------------------------

  auditEvents(query: AdminAuditQuery = {}) {
    return this.request<AdminAnswers['auditEvents']>('GET', '/audit-events', undefined, query);
  }
}
