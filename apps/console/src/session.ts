import { type AccountAnswers, AdminClient, type AdminRole, type AdminSession, ApiResponse, type LbsAnswers } from '@geoaccount/client';

/**
 * The operator's session (docs/contract.md §12, §14): an `HttpOnly` cookie the browser keeps
 * and the page never sees, and the CSRF token the service answered, held in memory. No app
 * secret or AES key ever reaches the page: the calls on an app's data go to the account
 * service's proxy (`/console/api/{app_token}/…`), which signs them as the app for the operator.
 */
export interface Operator {
  login: string;
  role: AdminRole;
  apps: string[];
}

/** What the account service publishes at /console/config.json. */
export interface ConsoleConfig {
  locationUrl: string;
}

export async function loadConfig(): Promise<ConsoleConfig> {
  const res = await fetch('/console/config.json');
  return (await res.json()) as ConsoleConfig;
}

/** The admin API client of the page (same origin, the session cookie sent by the browser). */
export const admin = new AdminClient({ baseUrl: window.location.origin, retries: 1 });

export function operatorOf(session: AdminSession): Operator {
  return { login: session.operator, role: session.role, apps: session.apps };
}

type Fields = Record<string, string | undefined>;

/** One call to the console proxy: a GET's fields in the query, a change's as a JSON object (with the CSRF header). */
async function proxyCall<T>(method: 'GET' | 'POST' | 'PUT', url: string, fields: Record<string, string>, envelope: 'account' | 'location'): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const csrf = admin.sessionState.csrfToken;
  let target = url;
  let body: string | undefined;
  if (method === 'GET') {
    const qs = new URLSearchParams(fields).toString();
    if (qs) target += `?${qs}`;
  } else {
    body = JSON.stringify(fields);
    headers['Content-Type'] = 'application/json';
    if (csrf) headers['X-CSRF-Token'] = csrf;
  }
  const res = await fetch(target, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the text is the body
  }
  return new ApiResponse<T>(res.status, parsed as T & Record<string, unknown>, res.headers, envelope);
}

function defined(fields: Fields): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}

/** Calls of one app's account data, through the proxy; the same names as `AccountClient`'s. */
export class ConsoleAccount {
  constructor(readonly appToken: string) {}

  private call<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT', segments: string[], fields: Fields = {}): Promise<ApiResponse<T>> {
    const url = `${window.location.origin}/console/api/${encodeURIComponent(this.appToken)}/account/v1.0.1/${segments.map(encodeURIComponent).join('/')}`;
    return proxyCall<T>(method, url, defined(fields), 'account');
  }

  createAuth = (id: string, f: Fields) => this.call<AccountAnswers['createAuth']>('POST', ['auths', id], f);
  modifyAuth = (id: string, f: Fields) => this.call<AccountAnswers['modifyAuth']>('PUT', ['auths', id], f);
  listAuths = (q: Fields = {}) => this.call<AccountAnswers['listAuths']>('GET', ['auths'], q);
  createGroup = (id: string, f: Fields) => this.call<AccountAnswers['createGroup']>('POST', ['authgroups', id], f);
  modifyGroup = (id: string, f: Fields) => this.call<AccountAnswers['modifyGroup']>('PUT', ['authgroups', id], f);
  listGroups = (q: Fields = {}) => this.call<AccountAnswers['listGroups']>('GET', ['authgroups'], q);
  registerUser = (id: string, f: Fields) => this.call<AccountAnswers['registerUser']>('POST', ['users', id], f);
  modifyUser = (id: string, f: Fields) => this.call<AccountAnswers['modifyUser']>('PUT', ['users', id], f);
  listUsers = (q: Fields = {}) => this.call<AccountAnswers['listUsers']>('GET', ['users'], q);
  userAuths = (id: string) => this.call<AccountAnswers['userAuths']>('GET', ['users', id, 'auths']);
  userHasAuth = (id: string, authId: string) => this.call<AccountAnswers['userHasAuth']>('GET', ['users', id, 'auths', authId]);
  /** A test login: the password goes to the service, which encrypts it with the app's AES key. */
  login = (id: string, password: string, f: Fields = {}) => this.call<AccountAnswers['login']>('POST', ['users', 'login', id], { ...f, user_pwd: password });
  /** The app's audit events through the admin API (admins, its app_admins and auditors may read them). */
  auditEvents = (q: Fields = {}) => admin.auditEvents({ ...defined(q), app_token: this.appToken });
}

/** Location lookups as one app, through the proxy. */
export class ConsoleLbs {
  constructor(readonly appToken: string) {}

  private call<Op extends keyof LbsAnswers>(operation: Op, params: Fields): Promise<ApiResponse<LbsAnswers[Op]>> {
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(params)) if (v !== undefined) query[`param.${k}`] = v;
    return proxyCall<LbsAnswers[Op]>('GET', `${window.location.origin}/console/api/${encodeURIComponent(this.appToken)}/lbsapi/api/${operation}`, query, 'location');
  }

  lbsQuery = (p: Fields) => this.call('lbsQuery', p);
  addressQuery = (p: Fields) => this.call('addressQuery', p);
  baseStationQuery = (p: Fields) => this.call('baseStationQuery', p);
}

/** The operator and the app they work on. */
export interface Session {
  operator: Operator;
  appToken: string;
  account: ConsoleAccount;
  lbs: ConsoleLbs;
}

export function sessionFor(operator: Operator, appToken: string): Session {
  return { operator, appToken, account: new ConsoleAccount(appToken), lbs: new ConsoleLbs(appToken) };
}

/** An answer's code and message, for showing a refusal as the service gave it. */
export interface Outcome {
  status: number;
  code: string;
  message: string;
}

export function outcomeOf(res: ApiResponse<unknown>): Outcome {
  const body = res.body as Record<string, unknown>;
  return {
    status: res.status,
    code: String(body.response_code ?? body.code ?? ''),
    message: String(body.response_message ?? body.resultDesc ?? ''),
  };
}

/** Props every page gets: the session, and what to do when the service answers 401. */
export interface PageProps {
  session: Session;
  /** The session ended (401): back to Sign in, with the service's message. */
  unauthorized: (message: string) => void;
}
