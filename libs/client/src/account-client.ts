import { type AccountCallOptions, type AccountClientOptions, AccountTransport, type Fields, type Method, type PathIdField, accountPath } from './account-transport';
import type { ApiResponse } from './http';
import type { AccountAnswer, AccountFields, AccountOperationName, AccountSuccess } from './schema';

export { SIGNING_HEADERS, type AccountCallOptions, type AccountClientOptions } from './account-transport';

/** The answer of an account call: `body` is any answer of the operation, `ok()` its success (or empty list). */
export type AccountResponse<N extends AccountOperationName> = ApiResponse<AccountSuccess<N>, AccountAnswer<N>>;

/**
 * A client of the account service: signs every request (docs/contract.md §2), encrypts login
 * passwords (§4), retries idempotent GETs and rate-limited calls. The fields of each call and
 * its answers are typed from the service's OpenAPI document: a misspelt field, an enumeration
 * value the service refuses or a result code the operation never answers does not compile.
 * Each call answers an `ApiResponse`; `.ok()` gives the body of a success (or the empty list of
 * a "no data" answer) or throws an `ApiError`; a request that got no answer rejects with a
 * `NetworkError`.
 */
export class AccountClient {
  readonly #transport: AccountTransport;

  constructor(options: AccountClientOptions) {
    this.#transport = new AccountTransport(options);
  }

  get options(): AccountClientOptions {
    return this.#transport.options;
  }

  #call<N extends AccountOperationName>(
    _operation: N,
    method: Method,
    path: string,
    fields: object,
    pathIds: Partial<Record<PathIdField, string>>,
    options?: AccountCallOptions,
  ): Promise<AccountResponse<N>> {
    return this.#transport.request<AccountSuccess<N>, AccountAnswer<N>>(method, path, fields as Fields, pathIds, options);
  }

  createAuth(authId: string, fields: AccountFields<'createAuth'>, options?: AccountCallOptions) {
    return this.#call('createAuth', 'POST', accountPath('auths', authId), fields, { auth_id: authId }, options);
  }
  modifyAuth(authId: string, fields: AccountFields<'modifyAuth'>, options?: AccountCallOptions) {
    return this.#call('modifyAuth', 'PUT', accountPath('auths', authId), fields, { auth_id: authId }, options);
  }
  listAuths(query: AccountFields<'listAuths'> = {}, options?: AccountCallOptions) {
    return this.#call('listAuths', 'GET', accountPath('auths'), query, {}, options);
  }
  getAuth(authId: string, options?: AccountCallOptions) {
    return this.#call('getAuth', 'GET', accountPath('auths', authId), {}, { auth_id: authId }, options);
  }
  createGroup(groupId: string, fields: AccountFields<'createGroup'>, options?: AccountCallOptions) {
    return this.#call('createGroup', 'POST', accountPath('authgroups', groupId), fields, { group_id: groupId }, options);
  }
  modifyGroup(groupId: string, fields: AccountFields<'modifyGroup'>, options?: AccountCallOptions) {
    return this.#call('modifyGroup', 'PUT', accountPath('authgroups', groupId), fields, { group_id: groupId }, options);
  }
  listGroups(query: AccountFields<'listGroups'> = {}, options?: AccountCallOptions) {
    return this.#call('listGroups', 'GET', accountPath('authgroups'), query, {}, options);
  }
  getGroup(groupId: string, options?: AccountCallOptions) {
    return this.#call('getGroup', 'GET', accountPath('authgroups', groupId), {}, { group_id: groupId }, options);
  }
  registerUser(loginId: string, fields: AccountFields<'registerUser'>, options?: AccountCallOptions) {
    return this.#call('registerUser', 'POST', accountPath('users', loginId), fields, { user_login_id: loginId }, options);
  }
  modifyUser(loginId: string, fields: AccountFields<'modifyUser'>, options?: AccountCallOptions) {
    return this.#call('modifyUser', 'PUT', accountPath('users', loginId), fields, { user_login_id: loginId }, options);
  }
  listUsers(query: AccountFields<'listUsers'> = {}, options?: AccountCallOptions) {
    return this.#call('listUsers', 'GET', accountPath('users'), query, {}, options);
  }
  getUser(loginId: string, options?: AccountCallOptions) {
    return this.#call('getUser', 'GET', accountPath('users', loginId), {}, { user_login_id: loginId }, options);
  }
  /** The app's audit events (interface 207), filtered and paged as docs/contract.md §10 says. */
  auditEvents(query: AccountFields<'auditEvents'> = {}, options?: AccountCallOptions) {
    return this.#call('auditEvents', 'GET', accountPath('audit-events'), query, {}, options);
  }
  userAuths(loginId: string, options?: AccountCallOptions) {
    return this.#call('userAuths', 'GET', accountPath('users', loginId, 'auths'), {}, { user_login_id: loginId }, options);
  }
  userHasAuth(loginId: string, authId: string, options?: AccountCallOptions) {
    return this.#call('userHasAuth', 'GET', accountPath('users', loginId, 'auths', authId), {}, { user_login_id: loginId, auth_id: authId }, options);
  }

  /** Logs in with a clear-text password, encrypted here with the app's AES key (docs/contract.md §4). */
  async login(loginId: string, password: string, fields: Omit<AccountFields<'login'>, 'user_pwd_encrypt'> = {}, options?: AccountCallOptions) {
    return this.loginEncrypted(loginId, await this.encryptPassword(password), fields, options);
  }
  loginEncrypted(loginId: string, userPwdEncrypt: string, fields: Omit<AccountFields<'login'>, 'user_pwd_encrypt'> = {}, options?: AccountCallOptions) {
    return this.#call('login', 'POST', accountPath('users', 'login', loginId), { ...fields, user_pwd_encrypt: userPwdEncrypt }, { user_login_id: loginId }, options);
  }

  /** `user_pwd_encrypt` of a password under the app's AES key and mode (gcm by default). */
  encryptPassword(password: string): Promise<string> {
    return this.#transport.encryptPassword(password);
  }

  /** The docs/contract.md §2 signature of a request to `path` (the service path) with `params` (path ids included). */
  sign(method: string, path: string, params: Readonly<Record<string, string>>): Promise<string> {
    return this.#transport.sign(method, path, params);
  }
}
