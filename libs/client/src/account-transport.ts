import { type AesMode, accountPlaintext } from '@geoaccount/signing/portable';
import { type AnswerBody, type ApiResponse, type CallOptions, type TransportOptions, send, withRetries } from './http';
import type { AccountAnswers } from './schema';
import { type WebCryptoKey, deriveAesKey, encryptPassword, hmacSha256Hex, importHmacKey, randomBytes, toHex } from './web-crypto';

export interface AccountClientOptions extends TransportOptions {
  /** Where the account service listens, e.g. `http://127.0.0.1:3001`. */
  baseUrl: string;
  /** The app's token (`app_token`). */
  appToken: string;
  /** The app's secret (signs every request). */
  secret: string;
  /** Needed for `login`: the app's shared AES key string and mode. */
  aesKey?: string;
  aesMode?: AesMode;
  /** Send a random `nonce` with every request (required when the service sets `SIGNATURE_REQUIRE_NONCE`). */
  nonce?: boolean;
  /** The end user the app acts for: sent as the `user` header and signed (the audit trail's `operator`). */
  user?: string;
  /** Carry app_token, timestamp, nonce and signature in the `X-App-Token`… headers instead of fields. */
  signingHeaders?: boolean;
}

/** Options of one account call. */
export interface AccountCallOptions extends CallOptions {
  /** The signed `user` header of this call (default: the client's `user`). */
  user?: string;
}

/** Ways to bend a request, for tests of what the service refuses (`@geoaccount/client/internal`). */
export interface RequestTweaks extends AccountCallOptions {
  /** Send the body as multipart/form-data instead of urlencoded. */
  multipart?: boolean;
  /** Send the body as a JSON object of strings instead of urlencoded (signed the same way). */
  json?: boolean;
  /** Unix seconds; `null` omits the timestamp. Default: now. */
  timestamp?: number | null;
  nonce?: string;
  /** Replace the computed signature (`null` omits it). */
  signature?: string | null;
  /** Replace the app_token sent (`null` omits it); the signature still uses the client's. */
  appToken?: string | null;
  /** Extra fields that are sent but not signed. */
  unsigned?: Record<string, string>;
  /** Extra headers, not signed (a `user` header here is sent unsigned). */
  headers?: Record<string, string>;
  /** Signing values in headers (default: the client's `signingHeaders`). */
  signingHeaders?: boolean;
}

export type Fields = Record<string, string | undefined>;

/** Path ids, signed under these field names (docs/contract.md §2). */
export type PathIdField = 'auth_id' | 'group_id' | 'user_login_id';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** The signing headers of docs/contract.md §2, by the field they carry. */
export const SIGNING_HEADERS = { app_token: 'X-App-Token', timestamp: 'X-Timestamp', nonce: 'X-Nonce', signature: 'X-Signature' } as const;

/** Moves the signing fields of `fields` into their headers. */
function moveToHeaders(fields: Record<string, string>, headers: Record<string, string>): void {
  for (const [field, header] of Object.entries(SIGNING_HEADERS)) {
    const value = fields[field];
    if (value === undefined) continue;
    headers[header] = value;
    delete fields[field];
  }
}

/** The service path of the segments: `/account/v1.0.1/<segment>/…`, each percent-encoded. */
export function accountPath(...segments: string[]): string {
  return `/account/v1.0.1/${segments.map(encodeURIComponent).join('/')}`;
}

/**
 * Signs and sends account requests (docs/contract.md §2), encrypts login passwords (§4), retries as
 * `TransportOptions` says. The typed `AccountClient` and the workspace's `TestAccountClient`
 * are built on it.
 */
export class AccountTransport {
  private readonly key: Promise<WebCryptoKey>;
  private aesKey?: Promise<Uint8Array>;

  constructor(readonly options: AccountClientOptions) {
    this.key = importHmacKey(options.secret);
  }

  /**
   * Sends one signed request. `path` is the service path (`/account/v1.0.1/...`, segments
   * percent-encoded), appended to the base URL and signed; `pathIds` are the path's ids by field
   * name (signed, not sent as fields).
   */
  request<T = Record<string, unknown>, B = AnswerBody<T>>(
    method: Method,
    path: string,
    fields: Fields = {},
    pathIds: Partial<Record<PathIdField, string>> = {},
    tweaks: RequestTweaks = {},
  ): Promise<ApiResponse<T, B>> {
    return withRetries(method, this.options, () => this.attempt<T, B>(method, path, fields, pathIds, tweaks), tweaks.signal);
  }

  private async attempt<T, B>(
    method: Method,
    path: string,
    fields: Fields,
    pathIds: Partial<Record<PathIdField, string>>,
    tweaks: RequestTweaks,
  ): Promise<ApiResponse<T, B>> {
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) params[k] = v;
    const timestamp = tweaks.timestamp === undefined ? Math.floor(Date.now() / 1000) : tweaks.timestamp;
    if (timestamp !== null) params.timestamp = String(timestamp);
    const nonce = tweaks.nonce ?? (this.options.nonce ? toHex(randomBytes(12)) : undefined);
    if (nonce !== undefined) params.nonce = nonce;

    const signed: Record<string, string> = { ...params };
    for (const [k, v] of Object.entries(pathIds)) if (v !== undefined) signed[k] = v;
    const user = tweaks.user ?? this.options.user;
    if (user !== undefined) signed.user = user;
    // The path from the service prefix on is signed, not the base URL's own path (a gateway's).
    const signature = tweaks.signature === undefined ? await this.sign(method, path, signed) : tweaks.signature;
    const appToken = tweaks.appToken === undefined ? this.options.appToken : tweaks.appToken;

    const sent: Record<string, string> = { ...params };
    if (appToken !== null) sent.app_token = appToken;
    if (signature !== null) sent.signature = signature;
    const headers: Record<string, string> = {};
    if (user !== undefined) headers.user = user;
    if (tweaks.signingHeaders ?? this.options.signingHeaders) moveToHeaders(sent, headers);
    Object.assign(sent, tweaks.unsigned);
    const url = this.options.baseUrl.replace(/\/$/, '') + path;
    return send<T, B>(method, url, sent, {
      multipart: tweaks.multipart,
      json: tweaks.json,
      headers: { ...headers, ...tweaks.headers },
      envelope: 'account',
      fetch: this.options.fetch,
      signal: tweaks.signal,
      timeoutMs: tweaks.timeoutMs ?? this.options.timeoutMs,
    });
  }

  /** The docs/contract.md §2 signature of a request to `path` (the service path) with `params` (path ids included) for this app. */
  async sign(method: string, path: string, params: Readonly<Record<string, string>>): Promise<string> {
    return hmacSha256Hex(await this.key, accountPlaintext(method, this.options.appToken, path, params));
  }

  /** `user_pwd_encrypt` of a password under the app's AES key and mode (gcm by default). */
  async encryptPassword(password: string): Promise<string> {
    const { aesKey, aesMode = 'gcm' } = this.options;
    if (aesKey === undefined) throw new Error('AccountClient: aesKey is needed to encrypt a password');
    this.aesKey ??= deriveAesKey(aesKey);
    return encryptPassword(password, await this.aesKey, aesMode);
  }
}

/**
 * The workspace's account client: every operation takes any fields and the `RequestTweaks` of
 * a test (unsigned fields, another signature, a stale timestamp, …). Not part of the published
 * API: `@geoaccount/client/internal`.
 */
export class TestAccountClient extends AccountTransport {
  createAuth(authId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['createAuth']>('POST', accountPath('auths', authId), fields, { auth_id: authId }, tweaks);
  }
  modifyAuth(authId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['modifyAuth']>('PUT', accountPath('auths', authId), fields, { auth_id: authId }, tweaks);
  }
  listAuths(query: Fields = {}, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['listAuths']>('GET', accountPath('auths'), query, {}, tweaks);
  }
  getAuth(authId: string, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['getAuth']>('GET', accountPath('auths', authId), {}, { auth_id: authId }, tweaks);
  }
  createGroup(groupId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['createGroup']>('POST', accountPath('authgroups', groupId), fields, { group_id: groupId }, tweaks);
  }
  modifyGroup(groupId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['modifyGroup']>('PUT', accountPath('authgroups', groupId), fields, { group_id: groupId }, tweaks);
  }
  listGroups(query: Fields = {}, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['listGroups']>('GET', accountPath('authgroups'), query, {}, tweaks);
  }
  getGroup(groupId: string, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['getGroup']>('GET', accountPath('authgroups', groupId), {}, { group_id: groupId }, tweaks);
  }
  registerUser(loginId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['registerUser']>('POST', accountPath('users', loginId), fields, { user_login_id: loginId }, tweaks);
  }
  modifyUser(loginId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['modifyUser']>('PUT', accountPath('users', loginId), fields, { user_login_id: loginId }, tweaks);
  }
  listUsers(query: Fields = {}, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['listUsers']>('GET', accountPath('users'), query, {}, tweaks);
  }
  getUser(loginId: string, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['getUser']>('GET', accountPath('users', loginId), {}, { user_login_id: loginId }, tweaks);
  }
  /** The app's audit events (interface 207), filtered and paged as docs/contract.md §10 says. */
  auditEvents(query: Fields = {}, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['auditEvents']>('GET', accountPath('audit-events'), query, {}, tweaks);
  }
  userAuths(loginId: string, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['userAuths']>('GET', accountPath('users', loginId, 'auths'), {}, { user_login_id: loginId }, tweaks);
  }
  userHasAuth(loginId: string, authId: string, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['userHasAuth']>(
      'GET',
      accountPath('users', loginId, 'auths', authId),
      {},
      { user_login_id: loginId, auth_id: authId },
      tweaks,
    );
  }

  /** Logs in with a clear-text password, encrypted here with the app's AES key (docs/contract.md §4). */
  async login(loginId: string, password: string, fields: Fields = {}, tweaks?: RequestTweaks) {
    return this.loginEncrypted(loginId, await this.encryptPassword(password), fields, tweaks);
  }
  loginEncrypted(loginId: string, userPwdEncrypt: string, fields: Fields = {}, tweaks?: RequestTweaks) {
    return this.request<AccountAnswers['login']>(
      'POST',
      accountPath('users', 'login', loginId),
      { ...fields, user_pwd_encrypt: userPwdEncrypt },
      { user_login_id: loginId },
      tweaks,
    );
  }
}
