import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiException, type ResultCode } from '@geoaccount/api';
import {
  APP_REGISTRY,
  type AppRegistry,
  type RegisteredApp,
  encryptPassword,
  lbsSignedNames,
  signAccount,
  signLbs,
} from '@geoaccount/signing';
import { AdminSessionCodes } from '../admin-sessions/admin-sessions.codes';
import { AdminSessionsService } from '../admin-sessions/admin-sessions.service';
import { type AdminPrincipal, coversApp } from '../admin-sessions/admin-principal';
import { AppCodes } from '../apps/apps.codes';
import { AccountConfig } from '../config/account.config';
import { LOCATION_OPERATIONS, type LocationRoute, routeOf } from './console-routes';

/** Where the console's calls on an app's data arrive: `/console/api/{app_token}/…`. */
export const CONSOLE_API_PREFIX = '/console/api';

const NOT_FOUND: ResultCode = { code: '90404', status: 404, message: 'not found' };
const BAD_BODY: ResultCode = { code: '90100', status: 400, message: 'invalid parameter' };
const UNAVAILABLE: ResultCode = { code: '90503', status: 503, message: 'service unavailable' };
/** Fields the proxy sets itself: whatever the browser sends under these names is dropped. */
const SIGNING_FIELDS = new Set(['app_token', 'signature', 'timestamp', 'nonce', 'userToken']);
const MAX_BODY_BYTES = 64 * 1024;
const FORWARD_TIMEOUT_MS = 10_000;

async function jsonBody(req: Request): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiException({ code: '90413', status: 413, message: 'body too large' });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiException(BAD_BODY, 'body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ApiException(BAD_BODY, 'body is not an object');
  for (const [k, v] of Object.entries(parsed)) if (typeof v !== 'string') throw new ApiException(BAD_BODY, `invalid ${k}`.slice(0, 32));
  return parsed as Record<string, string>;
}

function queryOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(req.originalUrl, 'http://x').searchParams) {
    if (Object.hasOwn(out, k)) throw new ApiException(BAD_BODY, `repeated ${k}`.slice(0, 32));
    out[k] = v;
  }
  return out;
}

function withoutSigningFields(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (!SIGNING_FIELDS.has(k)) out[k] = v;
  return out;
}

/**
 * The console's session-bound proxy (docs/contract.md §12, §14): a call on an app's data
 * (permissions, groups, users, audit, location) arrives with the operator's session cookie,
 * and, for a change, its `X-CSRF-Token`; the proxy checks that the operator's role covers the
 * app (admin: every app; app_admin: its apps; an auditor works on no app's data - its audit
 * reads go through `/admin/v1/audit-events`), then signs the request as the app, with the
 * signed `user` header set to the operator's login so that the audit trail records who acted,
 * and forwards it to this service (or to the location service). The app's secret never leaves
 * the server. A login's `user_pwd` is encrypted here with the app's AES key.
 */
@Injectable()
export class ConsoleProxy {
  private readonly logger = new Logger('ConsoleProxy');

  constructor(
    private readonly sessions: AdminSessionsService,
    @Inject(APP_REGISTRY) private readonly registry: AppRegistry,
    private readonly config: AccountConfig,
  ) {}

  /** The Express handler mounted at `/console/api`. */
  handler(): (req: Request, res: Response, next: NextFunction) => void {
    return (req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        const result: ResultCode =
          err instanceof ApiException
            ? { ...err.result, message: err.message }
            : (this.logger.error(`proxy failure: ${(err as Error).message}`), UNAVAILABLE);
        if (!res.headersSent) res.status(result.status).json({ response_code: result.code, response_message: result.message });
      });
    };
  }

  private async handle(req: Request, res: Response): Promise<void> {
    const principal = await this.sessions.authenticate(req);
    const url = new URL(req.originalUrl, 'http://x');
    const rest = url.pathname.slice(CONSOLE_API_PREFIX.length);
    const slash = rest.indexOf('/', 1);
    const appToken = decodeURIComponent(rest.slice(1, slash < 0 ? undefined : slash));
    const route = slash < 0 ? undefined : routeOf(req.method, rest.slice(slash));
    if (!route) throw new ApiException(NOT_FOUND);
    const app = this.appFor(principal, appToken);
    const fields = withoutSigningFields(req.method === 'GET' ? queryOf(req) : await jsonBody(req));
    const answer =
      route.kind === 'location'
        ? await this.location(app, route, fields)
        : await this.account(req, app, principal.login, route.method, route.path, route.pathIds, fields);
    res.status(answer.status).type('application/json').send(answer.text);
  }

  /** The app the operator may work on, with a credential that is not expired. */
  private appFor(principal: AdminPrincipal, appToken: string): RegisteredApp {
    if (principal.role === 'auditor' || !coversApp(principal, appToken)) throw new ApiException(AdminSessionCodes.FORBIDDEN);
    const app = this.registry.get(appToken);
    if (!app) throw new ApiException(AppCodes.NOT_FOUND);
    return app;
  }

  private async account(
    req: Request,
    app: RegisteredApp,
    operator: string,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    pathIds: Record<string, string | undefined>,
    fields: Record<string, string>,
  ): Promise<{ status: number; text: string }> {
    const params: Record<string, string> = { ...fields };
    // A test login from the console: the password is encrypted here, never in the browser.
    if (path.startsWith('/account/v1.0.1/users/login/') && params.user_pwd !== undefined) {
      params.user_pwd_encrypt = encryptPassword(params.user_pwd, app.aesKey, app.aesMode);
      delete params.user_pwd;
    }
    params.timestamp = String(Math.floor(Date.now() / 1000));
    params.nonce = randomBytes(12).toString('hex');
    const signed: Record<string, string> = { ...params, user: operator };
    for (const [k, v] of Object.entries(pathIds)) if (v !== undefined) signed[k] = v;
    const signature = signAccount(app.hmacKey, method, app.appToken, path, signed);
    const body = { ...params, app_token: app.appToken, signature };
    const local = req.socket.localAddress ?? '127.0.0.1';
    const host = local.startsWith('::ffff:') ? local.slice(7) : local.includes(':') ? `[${local}]` : local;
    const target = `http://${host}:${req.socket.localPort}${path}`;
    const headers: Record<string, string> = { user: operator, accept: 'application/json' };
    const requestId = req.headers['x-request-id'];
    if (typeof requestId === 'string') headers['x-request-id'] = requestId;
    const init: RequestInit =
      method === 'GET'
        ? { method, headers }
        : { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const url = method === 'GET' ? `${target}?${new URLSearchParams(body).toString()}` : target;
    return this.forward(url, init);
  }

  private async location(
    app: RegisteredApp,
    route: LocationRoute,
    fields: Record<string, string>,
  ): Promise<{ status: number; text: string }> {
    const names = lbsSignedNames(LOCATION_OPERATIONS[route.operation]);
    const values: Record<string, string | undefined> = {};
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(fields)) {
      // The browser sends `param.x` as location takes it.
      query[k] = v;
      if (k.startsWith('param.')) values[k.slice('param.'.length)] = v;
    }
    query.userToken = app.appToken;
    query.signature = signLbs(app.hmacKey, route.operation, names, values);
    const base = withoutTrailingSlashes(this.config.CONSOLE_LOCATION_URL);
    return this.forward(`${base}/lbsapi/api/${route.operation}?${new URLSearchParams(query).toString()}`, { method: 'GET' });
  }

  private async forward(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
    let res: globalThis.Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    } catch (err) {
      this.logger.warn(`proxied call failed: ${(err as Error).message}`);
      throw new ApiException(UNAVAILABLE);
    }
    return { status: res.status, text: await res.text() };
  }
}

/** `url` without its trailing slashes (a loop: no pattern to backtrack over a long run of them). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end--;
  return url.slice(0, end);
}
