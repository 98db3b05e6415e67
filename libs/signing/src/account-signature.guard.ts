import { type CanActivate, type ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CommonCodes, ApiException, InvalidParameterException, tagInterface } from '@geoaccount/api';
import { verifyAccountCredential } from './account-signature';
import { APP_REGISTRY, type AppRegistry, type RegisteredApp } from './credentials';
import { CALLER_APP, type SignedRequest } from './caller-app';
import { nonceTtlSeconds } from './nonce-window';

/** Remembers nonces for the timestamp window; shared by all instances of a service. */
export interface NonceStore {
  /** True when (app, nonce) was not seen in the last `ttlSeconds`, and records it. */
  claim(appToken: string, nonce: string, ttlSeconds: number): Promise<boolean>;
}
export const NONCE_STORE = Symbol('NONCE_STORE');

export interface AccountSignatureOptions {
  /** Accepted clock skew of `timestamp` in seconds; 0: timestamp not required. */
  maxSkewSeconds: number;
  /** Every signed request must carry a `nonce` (each request usable once). Default: false. */
  requireNonce?: boolean;
}
export const ACCOUNT_SIGNATURE_OPTIONS = Symbol('ACCOUNT_SIGNATURE_OPTIONS');

/** What `verifyRequest` found: the calling app, and its nonce still to claim. */
export interface SignedCaller {
  readonly app: RegisteredApp;
  readonly nonce: string | undefined;
}

const DIGITS = /^\d{1,12}$/;
const MAX_NONCE = 64;

/**
 * The path a request was sent to, as on the wire (still percent-encoded), without the query:
 * Express's `originalUrl` is the request target whatever router handles it. An absolute-form
 * target (`GET http://host/path`) loses its scheme and authority.
 */
export function requestPath(req: { originalUrl?: string; url?: string }): string {
  const target = req.originalUrl ?? req.url ?? '/';
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  return path.startsWith('/') ? path : path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/';
}

/**
 * Verifies docs/contract.md §2 on every account request: app_token, HMAC-SHA256 signature over the
 * method, app token, request path, query or form fields and the path id, the timestamp window
 * and the nonce.
 */
@Injectable()
export class AccountSignatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_REGISTRY) private readonly registry: AppRegistry,
    @Inject(ACCOUNT_SIGNATURE_OPTIONS) private readonly options: AccountSignatureOptions,
    @Optional() @Inject(NONCE_STORE) private readonly nonces?: NonceStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    tagInterface(context, this.reflector);
    const req = context.switchToHttp().getRequest<SignedRequest>();
    const signed = this.verifyRequest(req);
    await this.claimNonce(signed);
    req[CALLER_APP] = signed.app;
    return true;
  }

  /**
   * docs/contract.md §2 up to the nonce's claim, which is left to `claimNonce`: the app whose
   * credential signed `req`, and the nonce it sent. Throws the refusal. What it records (the
   * credential's last use) is the same when it runs twice on one request (a direct route's
   * check, then the guard's).
   */
  verifyRequest(req: SignedRequest): SignedCaller {
    refuseQueryOfWrite(req);
    const fields = withSigningHeaders(req, requestFields(req));
    const params = signedParams(req, fields);

    if (fields.app_token === undefined || fields.app_token === '') throw new ApiException(CommonCodes.UNAUTHORIZED, 'missing app_token');
    const candidates = this.registry.credentialsOf(fields.app_token as string);
    if (!candidates) throw new ApiException(CommonCodes.UNAUTHORIZED, 'unknown app_token');

    const { maxSkewSeconds } = this.options;
    const timestamp = params.timestamp;
    if (maxSkewSeconds > 0) {
      if (timestamp === undefined) throw new ApiException(CommonCodes.UNAUTHORIZED, 'missing timestamp');
      if (!DIGITS.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > maxSkewSeconds) {
        throw new ApiException(CommonCodes.UNAUTHORIZED, 'stale timestamp');
      }
    }
    const nonce = params.nonce;
    if (nonce === undefined && this.options.requireNonce) throw new ApiException(CommonCodes.UNAUTHORIZED, 'missing nonce');
    // NUL: no text column of PostgreSQL can hold it (the nonce store would fail with a 500).
    if (nonce !== undefined && (nonce.length === 0 || nonce.length > MAX_NONCE || nonce.includes('\u0000')))
      throw new InvalidParameterException('nonce');

    const app = this.verify(candidates, req.method, fields.app_token as string, requestPath(req), params, fields.signature);
    if (!app)
      throw new ApiException(CommonCodes.UNAUTHORIZED, this.refusal(candidates, fields.app_token as string, req, params, fields.signature));
    return { app, nonce };
  }

  /** The nonce of a verified request, claimed once per timestamp window and app: a replay is refused. */
  async claimNonce({ app, nonce }: SignedCaller): Promise<void> {
    if (nonce === undefined || !this.nonces) return;
    const window = nonceTtlSeconds(this.options.maxSkewSeconds);
    if (!(await this.nonces.claim(app.appToken, nonce, window))) throw new ApiException(CommonCodes.UNAUTHORIZED, 'replayed nonce');
  }

  /** Why a signature does not match: a `user` header it does not cover is named as such. */
  private refusal(
    candidates: readonly RegisteredApp[],
    appToken: string,
    req: SignedRequest,
    params: Record<string, string>,
    signature: unknown,
  ): string {
    if (req.headers[USER_HEADER] === undefined) return 'bad signature';
    const withoutUser = { ...params };
    delete withoutUser[USER_HEADER];
    try {
      return verifyAccountCredential(candidates, req.method, appToken, requestPath(req), withoutUser, signature)
        ? 'user header not signed'
        : 'bad signature';
    } catch {
      return 'bad signature';
    }
  }

  /**
   * The credential of the app that signed the request (docs/contract.md §14: each active
   * secret is tried; its AES key then decrypts the login password), its use recorded in memory.
   */
  private verify(
    candidates: readonly RegisteredApp[],
    method: string,
    appToken: string,
    path: string,
    params: Record<string, string>,
    signature: unknown,
  ): RegisteredApp | undefined {
    let app: RegisteredApp | undefined;
    try {
      app = verifyAccountCredential(candidates, method, appToken, path, params, signature);
    } catch (err) {
      // A malformed escape in the path (`%zz`): no signature can match it.
      if (err instanceof URIError) return undefined;
      throw err;
    }
    if (app) this.registry.recordUse(app);
    return app;
  }
}

/**
 * docs/contract.md §2: the signing headers that may carry a field of the signature instead of
 * the field itself (for generated clients); the plaintext is the same either way.
 */
export const SIGNING_HEADERS = {
  app_token: 'x-app-token',
  timestamp: 'x-timestamp',
  nonce: 'x-nonce',
  signature: 'x-signature',
} as const;

/** The header of the end user the app acts for; signed as the parameter `user` when sent. */
export const USER_HEADER = 'user';

/** The fields of a request: its query (GET, HEAD) or its body (POST, PUT). */
export function requestFields(req: SignedRequest): Record<string, unknown> {
  const source = (req.method === 'GET' || req.method === 'HEAD' ? req.query : req.body) as Record<string, unknown> | undefined;
  return { ...(source ?? {}) };
}

/**
 * A write carries its parameters in its body only (docs/contract.md §2): parameters in the
 * query string of a POST or PUT would not be signed, so they are refused, naming them.
 */
export function refuseQueryOfWrite(req: SignedRequest): void {
  if (req.method === 'GET' || req.method === 'HEAD') return;
  const names = Object.keys((req.query ?? {}) as Record<string, unknown>);
  if (names.length > 0) throw new ApiException(CommonCodes.INVALID_PARAMETER, `query parameter ${names.join(',')}`);
}

/**
 * `fields` with the signing headers in the places of their fields. A value sent both as a
 * header and as a field is ambiguous: 400 90100 naming the field.
 */
export function withSigningHeaders(req: SignedRequest, fields: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...fields };
  for (const [field, header] of Object.entries(SIGNING_HEADERS)) {
    const value = req.headers[header];
    if (value === undefined) continue;
    if (merged[field] !== undefined) throw new InvalidParameterException(field, 'header and field');
    merged[field] = value;
  }
  return merged;
}

/**
 * The parameters of the plaintext: every field but `app_token` and `signature`, the path ids
 * under their names (a field repeating one with another value is refused), and the `user`
 * header as the parameter `user` when it is sent.
 */
export function signedParams(req: SignedRequest, fields: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    if (typeof value !== 'string') throw new InvalidParameterException(name, 'repeated');
    if (name !== 'app_token' && name !== 'signature') params[name] = value;
  }
  for (const [name, value] of Object.entries(req.params ?? {})) {
    if (typeof value !== 'string') continue;
    if (params[name] !== undefined && params[name] !== value) throw new InvalidParameterException(name, 'conflicting');
    params[name] = value;
  }
  const user = req.headers[USER_HEADER];
  if (user !== undefined) {
    if (typeof user !== 'string') throw new InvalidParameterException(USER_HEADER, 'repeated');
    if (params[USER_HEADER] !== undefined) throw new InvalidParameterException(USER_HEADER, 'header and field');
    params[USER_HEADER] = user;
  }
  return params;
}
