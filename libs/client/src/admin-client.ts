import { type ClientResponse, type TransportOptions, send, withRetries } from './http';
import type { AdminBody, AdminOperationName, AdminQuery, AdminSuccess } from './schema';

/**
 * An answer of an admin operation: `.ok()` its success (the document's), `body` that success's
 * fields plus whatever a failure carries (`AdminAnswer<N>` names every answer, with its codes).
 */
export type AdminResponse<N extends AdminOperationName> = ClientResponse<AdminSuccess<N>>;

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

/** The body of `createOperator` (the document's: `role` one of its roles, `password` 12-1024 characters). */
export type CreateOperatorInput = AdminBody<'createOperator'>;
/** The body of `modifyOperator`. */
export type ModifyOperatorInput = AdminBody<'modifyOperator'>;
/** The body of `createApp`. */
export type CreateAppInput = AdminBody<'createApp'>;
/** The body of `modifyApp`. */
export type ModifyAppInput = AdminBody<'modifyApp'>;
/** The body of `issueCredential`. */
export type IssueCredentialInput = AdminBody<'issueCredential'>;
/** The audit query of docs/contract.md §10, plus `app_token`. */
export type AdminAuditQuery = AdminQuery<'auditEvents'>;

const PREFIX = '/admin/v1';
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

  /** Sends one request; `body` is JSON. GETs are retried like the other clients'. */
  request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: object, query: Record<string, string | undefined> = {}): Promise<ClientResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.token !== undefined) headers.Authorization = `Bearer ${this.options.token}`;
    if (this.session.cookie !== undefined) headers.Cookie = this.session.cookie;
    if (method !== 'GET' && this.session.csrfToken !== undefined) headers['X-CSRF-Token'] = this.session.csrfToken;
    let url = `${withoutTrailingSlashes(this.options.baseUrl)}${PREFIX}${path}`;
    const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    if (qs) url += `?${qs}`;
    return withRetries(method, this.options, () =>
      send<T>(method, url, {}, { headers, envelope: 'account', fetch: this.options.fetch, ...(body === undefined ? {} : { jsonBody: body }) }),
    );
  }

  /** `request`, its answer typed by the document's operation `N`. */
  private call<N extends AdminOperationName>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: object, query: Record<string, string | undefined> = {}): Promise<AdminResponse<N>> {
    return this.request<AdminSuccess<N>>(method, path, body, query);
  }

  // --- sessions -------------------------------------------------------------------------

  /** Signs an operator in; on 201 the client holds the session (cookie and CSRF token) for the next calls. */
  async openSession(login: string, password: string): Promise<AdminResponse<'openSession'>> {
    const res = await this.call<'openSession'>('POST', '/sessions', { login, password });
    if (res.status === 201) {
      const cookie = /^([^=;\s]+=[^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
      this.session = { cookie, csrfToken: res.headers.get('x-csrf-token') ?? undefined };
    }
    return res;
  }

  /** Who the client acts as (with a session: its CSRF token again, which the client keeps). */
  async currentSession(): Promise<AdminResponse<'currentSession'>> {
    const res = await this.call<'currentSession'>('GET', '/sessions/current');
    const csrf = res.headers.get('x-csrf-token');
    if (csrf) this.session = { ...this.session, csrfToken: csrf };
    return res;
  }

  /** Ends the session and forgets it. */
  async closeSession(): Promise<AdminResponse<'closeSession'>> {
    const res = await this.call<'closeSession'>('DELETE', '/sessions/current');
    this.session = {};
    return res;
  }

  // --- apps and credentials ------------------------------------------------------------

  /** 201: the app and its first credential (the only time its secret and AES key are answered). */
  createApp(input: CreateAppInput) {
    return this.call<'createApp'>('POST', '/apps', input);
  }

  listApps() {
    return this.call<'listApps'>('GET', '/apps');
  }

  getApp(appToken: string) {
    return this.call<'getApp'>('GET', `/apps/${seg(appToken)}`);
  }

  modifyApp(appToken: string, input: ModifyAppInput) {
    return this.call<'modifyApp'>('PATCH', `/apps/${seg(appToken)}`, input);
  }

  disableApp(appToken: string) {
    return this.modifyApp(appToken, { state: 'disabled' });
  }

  enableApp(appToken: string) {
    return this.modifyApp(appToken, { state: 'enabled' });
  }

  /** 201: a new credential; with `retire_others_in` (60-2592000 s) the other active one expires then. 409 30120 when two are active. */
  issueCredential(appToken: string, input: IssueCredentialInput = {}) {
    return this.call<'issueCredential'>('POST', `/apps/${seg(appToken)}/credentials`, input);
  }

  revokeCredential(appToken: string, credentialId: string) {
    return this.call<'revokeCredential'>('DELETE', `/apps/${seg(appToken)}/credentials/${seg(credentialId)}`);
  }

  /** Clears a locked user login id of an app (404 30401 when it is not locked). */
  clearLockout(appToken: string, userLoginId: string) {
    return this.call<'clearLockout'>('DELETE', `/apps/${seg(appToken)}/lockouts/${seg(userLoginId)}`);
  }

  // --- operators -----------------------------------------------------------------------

  createOperator(input: CreateOperatorInput) {
    return this.call<'createOperator'>('POST', '/operators', input);
  }

  listOperators() {
    return this.call<'listOperators'>('GET', '/operators');
  }

  getOperator(login: string) {
    return this.call<'getOperator'>('GET', `/operators/${seg(login)}`);
  }

  /** `"state":"enabled"` also clears the operator's sign-in lock. */
  modifyOperator(login: string, input: ModifyOperatorInput) {
    return this.call<'modifyOperator'>('PATCH', `/operators/${seg(login)}`, input);
  }

  // --- audit ---------------------------------------------------------------------------

  auditEvents(query: AdminAuditQuery = {}) {
    return this.call<'auditEvents'>('GET', '/audit-events', undefined, query);
  }
}

/** `url` without its trailing slashes (a loop: no pattern to backtrack over a long run of them). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end--;
  return url.slice(0, end);
}
