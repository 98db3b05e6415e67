import { openApi } from './openapi-answers';

/** A 32-character-or-longer `ADMIN_TOKEN` of the tests. */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef-0123';
export const TEST_INTERNAL_TOKEN = 'test-internal-token-0123456789abcdef-01';
/** The environment of a harness with the control plane on. */
export const CONTROL_PLANE_ENV = { ADMIN_TOKEN: TEST_ADMIN_TOKEN, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN } as const;

export interface AdminAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

export interface AdminAuth {
  /** `Authorization: Bearer` value. */
  bearer?: string;
  /** The session cookie's value, and its CSRF token. */
  cookie?: string;
  csrf?: string;
}

/**
 * Calls the admin and internal APIs (docs/contract.md §14) as JSON, and checks every answer
 * against the committed OpenAPI document.
 */
export class AdminClient {
  constructor(
    readonly baseUrl: string,
    readonly auth: AdminAuth = {},
  ) {}

  with(auth: AdminAuth): AdminClient {
    return new AdminClient(this.baseUrl, auth);
  }

  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<AdminAnswer> {
    const h: Record<string, string> = { ...headers };
    if (this.auth.bearer !== undefined) h.authorization = `Bearer ${this.auth.bearer}`;
    if (this.auth.cookie !== undefined) h.cookie = `admin_session=${this.auth.cookie}`;
    if (this.auth.csrf !== undefined) h['x-csrf-token'] = this.auth.csrf;
    if (body !== undefined) h['content-type'] ??= 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: checked as text
    }
    openApi.check({ method, url: path, status: res.status, headers: res.headers, body: parsed });
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get(path: string) {
    return this.call('GET', path);
  }
  post(path: string, body: unknown = {}) {
    return this.call('POST', path, body);
  }
  patch(path: string, body: unknown) {
    return this.call('PATCH', path, body);
  }
  delete(path: string) {
    return this.call('DELETE', path);
  }

  /** Signs an operator in; the client of its session (cookie and CSRF token). */
  async signIn(login: string, password: string): Promise<AdminClient> {
    const res = await this.with({}).post('/admin/v1/sessions', { login, password });
    if (res.status !== 201) throw new Error(`sign-in of ${login}: ${res.status} ${JSON.stringify(res.body)}`);
    const cookie = /admin_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    return this.with({ cookie, csrf: res.headers.get('x-csrf-token') ?? undefined });
  }
}
