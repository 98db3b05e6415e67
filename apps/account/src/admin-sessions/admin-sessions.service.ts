import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { AccountCodes, ApiException, type ResultCode } from '@geoaccount/api';
import { AuditTrail } from '../audit/audit-trail';
import type { AuditEventRow } from '../audit/audit-events.repository';
import { AccountConfig } from '../config/account.config';
import { DirectoryService } from '../directory/directory.service';
import { LoginLockout } from '../login/login-lockout';
import { OPERATOR_LOCKOUT_APP, OperatorsRepository } from '../operators/operators.repository';
import { PasswordHasher } from '../users/password-hasher';
import type { AdminPrincipal } from './admin-principal';
import { AdminSessionCodes } from './admin-sessions.codes';
import { AdminSessionsRepository } from './admin-sessions.repository';

/** docs/contract.md §14: a session ends after 30 idle minutes. */
export const SESSION_IDLE_SECONDS = 30 * 60;
/** A session's last-seen time is written at most this often (not on every request). */
const TOUCH_AFTER_SECONDS = 60;
export const SESSION_COOKIE = 'admin_session';
export const CSRF_HEADER = 'x-csrf-token';
/** The operator of `ADMIN_TOKEN` (docs/contract.md §14). */
export const TOKEN_OPERATOR = 'admin';

const BUSY_WAIT_MS = 10_000;

export interface OpenedSession {
  token: string;
  csrfToken: string;
  principal: AdminPrincipal;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Authentication of the admin API (docs/contract.md §14): `ADMIN_TOKEN`, operator sessions
 * (cookie or bearer), sign-in under the user logins' lockout rule (app `""`), sign-out.
 */
@Injectable()
export class AdminSessionsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(AdminSessionsService.name);
  private readonly adminTokenHash?: Buffer;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: AdminSessionsRepository,
    private readonly operators: OperatorsRepository,
    private readonly hasher: PasswordHasher,
    private readonly lockout: LoginLockout,
    private readonly directory: DirectoryService,
    private readonly audit: AuditTrail,
    @Inject(AccountConfig) config: AccountConfig,
  ) {
    if (config.ADMIN_TOKEN) this.adminTokenHash = sha256(config.ADMIN_TOKEN);
  }

  /** Opens a session; a wrong password and an unknown login give the same 401 90401 after the same work. */
  async signIn(login: string, password: string): Promise<OpenedSession> {
    const claim = await this.claim(login);
    const operator = await this.operators.find(login);
    let ok: boolean;
    try {
      ok = operator?.directory
        ? await this.directory.verify(OPERATOR_LOCKOUT_APP, login, password)
        : (await this.hasher.check(operator?.passwordHash ?? null, password)).ok;
    } catch (err) {
      // Nothing verified (the directory unavailable): not a failure.
      await this.lockout.release(OPERATOR_LOCKOUT_APP, login, claim).catch(() => undefined);
      throw err;
    }
    if (!operator || operator.state !== 'enabled' || !ok) {
      await this.lockout.fail(OPERATOR_LOCKOUT_APP, login, this.eventOf(login, 'login_failed', AdminSessionCodes.BAD_CREDENTIALS));
      throw new ApiException(AdminSessionCodes.BAD_CREDENTIALS);
    }
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    await this.sessions.insert(this.dataSource.manager, sha256(token).toString('hex'), login, csrfToken);
    await this.lockout.succeed(OPERATOR_LOCKOUT_APP, login, claim, this.eventOf(login, 'login', AdminSessionCodes.SIGNED_IN));
    return { token, csrfToken, principal: { login, role: operator.role, apps: operator.apps, via: 'cookie' } };
  }

  /** Claims an attempt of the lockout; a locked operator is 403 30402 (recorded). */
  private async claim(login: string): Promise<{ at: string }> {
    const deadline = Date.now() + BUSY_WAIT_MS;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      const claim = await this.lockout.claim(OPERATOR_LOCKOUT_APP, login);
      if (claim === 'locked') {
        await this.audit.record(this.dataSource.manager, this.event(login, 'login_failed', AdminSessionCodes.OPERATOR_LOCKED));
        throw new ApiException(AdminSessionCodes.OPERATOR_LOCKED);
      }
      if (claim !== 'busy') return claim;
      if (Date.now() >= deadline) throw new ApiException(AccountCodes.RATE_LIMITED);
      await sleep(pause / 2 + Math.random() * pause);
    }
  }

  private event(login: string, action: 'login' | 'login_failed', code: ResultCode) {
    return { appToken: '', action, resourceType: 'session' as const, resourceId: login, resultCode: code.code, operator: login };
  }

  private eventOf(login: string, action: 'login' | 'login_failed', code: ResultCode): AuditEventRow {
    return this.audit.rowOf(this.event(login, action, code));
  }

  /**
   * The principal of a request: `Authorization: Bearer` (the `ADMIN_TOKEN`, or a session
   * token) or the session cookie; a change through the cookie needs the session's CSRF token.
   * Otherwise 401 90401 (403 90403 for the CSRF header).
   */
  async authenticate(req: Request): Promise<AdminPrincipal> {
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const m = /^Bearer ([\x21-\x7e]{1,512})$/.exec(authorization);
      if (!m) throw new ApiException(AdminSessionCodes.NOT_SIGNED_IN);
      const hash = sha256(m[1]!);
      if (this.adminTokenHash && timingSafeEqual(hash, this.adminTokenHash)) return { login: TOKEN_OPERATOR, role: 'admin', apps: [], via: 'token' };
      const session = await this.live(hash);
      return { login: session.login, role: session.role, apps: session.apps, via: 'bearer-session' };
    }
    const token = sessionCookieOf(req);
    if (token === undefined) throw new ApiException(AdminSessionCodes.NOT_SIGNED_IN);
    const session = await this.live(sha256(token));
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const header = req.headers[CSRF_HEADER];
      if (typeof header !== 'string' || !timingSafeEqual(sha256(header), sha256(session.csrfToken)))
        throw new ApiException(AdminSessionCodes.CSRF);
    }
    return { login: session.login, role: session.role, apps: session.apps, via: 'cookie' };
  }

  /** The CSRF token of the cookie's session (`undefined` for a bearer). */
  async csrfTokenOf(req: Request): Promise<string | undefined> {
    const token = sessionCookieOf(req);
    if (token === undefined || req.headers.authorization !== undefined) return undefined;
    return (await this.sessions.findLive(sha256(token).toString('hex'), SESSION_IDLE_SECONDS))?.csrfToken;
  }

  private async live(hash: Buffer): Promise<{ login: string; role: AdminPrincipal['role']; apps: string[]; csrfToken: string }> {
    const hex = hash.toString('hex');
    const session = await this.sessions.findLive(hex, SESSION_IDLE_SECONDS);
    if (!session) throw new ApiException(AdminSessionCodes.NOT_SIGNED_IN);
    if (session.idleSeconds >= TOUCH_AFTER_SECONDS) await this.sessions.touch(hex);
    return session;
  }

  /** Ends the session of the request (cookie or bearer session token); the `ADMIN_TOKEN` has none. */
  async signOut(req: Request): Promise<void> {
    const authorization = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const token = authorization ?? sessionCookieOf(req);
    if (token !== undefined) await this.sessions.delete(sha256(token).toString('hex'));
  }

  onModuleInit(): void {
    this.timer = setInterval(
      () => void this.sessions.purge(SESSION_IDLE_SECONDS).catch((err: unknown) => this.logger.warn(`session purge failed: ${(err as Error).message}`)),
      5 * 60_000,
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}

/** The value of the session cookie, if the request carries one. */
export function sessionCookieOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}
