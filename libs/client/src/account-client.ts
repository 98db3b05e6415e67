import { randomBytes } from 'node:crypto';
import { type AesMode, deriveAesKey, encryptPassword, hmacKey, signAccount } from '@geoaccount/signing';
import { type ClientResponse, send } from './http';

export interface AccountClientOptions {
  baseUrl: string;
  appToken: string;
  secret: string;
  /** Needed for `login`: the app's shared AES key string and mode. */
  aesKey?: string;
  aesMode?: AesMode;
  /** Send a random `nonce` with every request. */
  nonce?: boolean;
}

/** Ways to bend a request, for tests of what the service refuses. */
export interface RequestTweaks {
  /** Send the body as multipart/form-data instead of urlencoded. */
  multipart?: boolean;
  /** Unix seconds; `null` omits the timestamp. Default: now. */
  timestamp?: number | null;
  nonce?: string;
  /** Replace the computed signature (`null` omits it). */
  signature?: string | null;
  /** Replace the app_token sent (`null` omits it); the signature still uses the client's. */
  appToken?: string | null;
  /** Extra fields that are sent but not signed. */
  unsigned?: Record<string, string>;
  headers?: Record<string, string>;
}

export type Fields = Record<string, string | undefined>;

/** Path ids, signed under these field names (CONTRACT §2). */
export type PathIdField = 'auth_id' | 'group_id' | 'user_login_id';

/** A typed client for the account service that signs every request (CONTRACT §2). */
export class AccountClient {
  private readonly key;

  constructor(readonly options: AccountClientOptions) {
    this.key = hmacKey(options.secret);
  }

  /** Sends one signed request. `pathIds` are the path's ids by field name (signed, not sent as fields). */
  async request<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    path: string,
    fields: Fields = {},
    pathIds: Partial<Record<PathIdField, string>> = {},
    tweaks: RequestTweaks = {},
  ): Promise<ClientResponse<T>> {
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) params[k] = v;
    const timestamp = tweaks.timestamp === undefined ? Math.floor(Date.now() / 1000) : tweaks.timestamp;
    if (timestamp !== null) params.timestamp = String(timestamp);
    const nonce = tweaks.nonce ?? (this.options.nonce ? randomBytes(12).toString('hex') : undefined);
    if (nonce !== undefined) params.nonce = nonce;

    const signed: Record<string, string> = { ...params };
    for (const [k, v] of Object.entries(pathIds)) if (v !== undefined) signed[k] = v;
    const signature = tweaks.signature === undefined ? signAccount(this.key, method, this.options.appToken, signed) : tweaks.signature;
    const appToken = tweaks.appToken === undefined ? this.options.appToken : tweaks.appToken;

    const sent: Record<string, string> = { ...params, ...tweaks.unsigned };
    if (appToken !== null) sent.app_token = appToken;
    if (signature !== null) sent.signature = signature;
    const url = this.options.baseUrl.replace(/\/$/, '') + path;
    return send<T>(method, url, sent, { multipart: tweaks.multipart, headers: tweaks.headers });
  }

  private path(...segments: string[]): string {
    return `/account/v1.0.1/${segments.map(encodeURIComponent).join('/')}`;
  }

  createAuth(authId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request('POST', this.path('auths', authId), fields, { auth_id: authId }, tweaks);
  }
  modifyAuth(authId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request('PUT', this.path('auths', authId), fields, { auth_id: authId }, tweaks);
  }
  listAuths(query: Fields = {}, tweaks?: RequestTweaks) {
    return this.request('GET', this.path('auths'), query, {}, tweaks);
  }
  getAuth(authId: string, tweaks?: RequestTweaks) {
    return this.request('GET', this.path('auths', authId), {}, { auth_id: authId }, tweaks);
  }
  createGroup(groupId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request('POST', this.path('authgroups', groupId), fields, { group_id: groupId }, tweaks);
  }
  modifyGroup(groupId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request('PUT', this.path('authgroups', groupId), fields, { group_id: groupId }, tweaks);
  }
  listGroups(query: Fields = {}, tweaks?: RequestTweaks) {
    return this.request('GET', this.path('authgroups'), query, {}, tweaks);
  }
  getGroup(groupId: string, tweaks?: RequestTweaks) {
    return this.request('GET', this.path('authgroups', groupId), {}, { group_id: groupId }, tweaks);
  }
  registerUser(loginId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request('POST', this.path('users', loginId), fields, { user_login_id: loginId }, tweaks);
  }
  modifyUser(loginId: string, fields: Fields, tweaks?: RequestTweaks) {
    return this.request('PUT', this.path('users', loginId), fields, { user_login_id: loginId }, tweaks);
  }
  listUsers(query: Fields = {}, tweaks?: RequestTweaks) {
    return this.request('GET', this.path('users'), query, {}, tweaks);
  }
  getUser(loginId: string, tweaks?: RequestTweaks) {
    return this.request('GET', this.path('users', loginId), {}, { user_login_id: loginId }, tweaks);
  }
  userAuths(loginId: string, tweaks?: RequestTweaks) {
    return this.request('GET', this.path('users', loginId, 'auths'), {}, { user_login_id: loginId }, tweaks);
  }
  userHasAuth(loginId: string, authId: string, tweaks?: RequestTweaks) {
    return this.request('GET', this.path('users', loginId, 'auths', authId), {}, { user_login_id: loginId, auth_id: authId }, tweaks);
  }

  /** Logs in with a clear-text password, encrypted here with the app's AES key (CONTRACT §4). */
  login(loginId: string, password: string, fields: Fields = {}, tweaks?: RequestTweaks) {
    return this.loginEncrypted(loginId, this.encryptPassword(password), fields, tweaks);
  }
  loginEncrypted(loginId: string, userPwdEncrypt: string, fields: Fields = {}, tweaks?: RequestTweaks) {
    return this.request(
      'POST',
      this.path('users', 'login', loginId),
      { ...fields, user_pwd_encrypt: userPwdEncrypt },
      { user_login_id: loginId },
      tweaks,
    );
  }

  encryptPassword(password: string): string {
    const { aesKey, aesMode = 'gcm' } = this.options;
    if (aesKey === undefined) throw new Error('AccountClient: aesKey is needed to encrypt a password');
    return encryptPassword(password, deriveAesKey(aesKey), aesMode);
  }
}
