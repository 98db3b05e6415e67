import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { accountOk } from '@geoaccount/api';
import { AccountCodes } from '../common/account-codes';
import { ADMIN_API_PREFIX } from './admin-controller';
import { AdminPermission } from './admin-permission';
import { type AdminPrincipal, Principal } from './admin-principal';
import { AdminGuard } from './admin.guard';
import { AdminOperation } from './admin-openapi';
import { AdminSessionCodes } from './admin-sessions.codes';
import { AdminSessionsService, SESSION_COOKIE, SESSION_IDLE_SECONDS } from './admin-sessions.service';
import { OpenSessionDto } from './dto/open-session.dto';
import { LoginRateLimit } from '../login/login-rate-limit';
import { OPERATOR_LOCKOUT_APP } from '../operators/operators.repository';

const SESSION_ANSWER = {
  type: 'object',
  properties: {
    operator: { type: 'string' },
    role: { type: 'string', enum: ['admin', 'app_admin', 'auditor'] },
    apps: { type: 'array', items: { type: 'string' } },
  },
  required: ['operator', 'role', 'apps'],
  additionalProperties: false,
};
const CSRF_HEADER_DOC = {
  'X-CSRF-Token': { description: 'Send it back as `X-CSRF-Token` on every change made with the session cookie.', schema: { type: 'string' } },
};

/** The cookie is `Secure` unless the service is reached on a loopback address (docs/contract.md §14). */
function onLoopback(req: Request): boolean {
  const local = (req.socket.localAddress ?? '').replace(/^::ffff:/, '');
  return local === '::1' || local.startsWith('127.');
}

/** Operator sessions of the admin API (docs/contract.md §14). */
@Controller(`${ADMIN_API_PREFIX}/sessions`)
@ApiTags('admin')
export class AdminSessionsController {
  constructor(
    private readonly sessions: AdminSessionsService,
    private readonly rate: LoginRateLimit,
  ) {}

  @Post()
  @HttpCode(201)
  @AdminOperation({
    operationId: 'openAdminSession',
    summary: 'Sign in',
    description:
      'Opens an operator session: an `HttpOnly`, `SameSite=Strict` cookie (`Secure` unless served on loopback), idle for at most 30 minutes, ' +
      'and the `X-CSRF-Token` header every change made with the cookie must send back. A wrong password and an unknown login both answer 401 90401; ' +
      'failures count toward the lockout of user logins (under the app `""`): a locked operator is 403 30402.',
    status: 201,
    open: true,
    body: OpenSessionDto,
    answer: SESSION_ANSWER,
    headers: CSRF_HEADER_DOC,
    // 429: attempts of one login waited too long for their turn; 503 20499: a directory operator's directory is unavailable.
    codes: [AdminSessionCodes.BAD_CREDENTIALS, AdminSessionCodes.OPERATOR_LOCKED, AccountCodes.RATE_LIMITED, AccountCodes.LOGIN_DIRECTORY_UNAVAILABLE],
  })
  async open(@Body() dto: OpenSessionDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    // docs/contract.md §1: sign-ins count toward LOGIN_RATE_LIMIT_PER_MINUTE like user logins, under the app "".
    const done = this.rate.enter(OPERATOR_LOCKOUT_APP);
    let opened: Awaited<ReturnType<AdminSessionsService['signIn']>>;
    try {
      opened = await this.sessions.signIn(dto.login, dto.password);
    } finally {
      done();
    }
    const { token, csrfToken, principal } = opened;
    const secure = onLoopback(req) ? '' : '; Secure';
    res.setHeader('Set-Cookie', `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_IDLE_SECONDS * 48}${secure}`);
    res.setHeader('X-CSRF-Token', csrfToken);
    return accountOk(true, { operator: principal.login, role: principal.role, apps: principal.apps });
  }

  @Get('current')
  @UseGuards(AdminGuard)
  @AdminPermission('session.read')
  @AdminOperation({
    operationId: 'getAdminSession',
    summary: 'The current operator',
    description: 'Who the request acts as (session cookie, session token or `ADMIN_TOKEN`); with the cookie, the `X-CSRF-Token` header again.',
    status: 200,
    answer: SESSION_ANSWER,
    headers: CSRF_HEADER_DOC,
  })
  async current(@Principal() principal: AdminPrincipal, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const csrf = await this.sessions.csrfTokenOf(req);
    if (csrf) res.setHeader('X-CSRF-Token', csrf);
    return accountOk(false, { operator: principal.login, role: principal.role, apps: principal.apps });
  }

  @Delete('current')
  @UseGuards(AdminGuard)
  @AdminPermission('session.read')
  @AdminOperation({
    operationId: 'closeAdminSession',
    summary: 'Sign out',
    description: 'Ends the current session and clears its cookie.',
    status: 200,
  })
  async close(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    await this.sessions.signOut(req);
    res.setHeader('Set-Cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
    return accountOk(false);
  }
}
