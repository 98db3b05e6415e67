import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

export const OPERATOR_ROLES = ['admin', 'app_admin', 'auditor'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Who calls the admin API: an operator of a session, or `admin` of the `ADMIN_TOKEN`. */
export interface AdminPrincipal {
  readonly login: string;
  readonly role: OperatorRole;
  /** The apps of an `app_admin`. */
  readonly apps: readonly string[];
  /** How the request authenticated: the session cookie needs the CSRF header on changes. */
  readonly via: 'token' | 'cookie' | 'bearer-session';
}

export const ADMIN_PRINCIPAL = Symbol('adminPrincipal');
export type AdminRequest = Request & { [ADMIN_PRINCIPAL]?: AdminPrincipal };

/** The principal the admin guard authenticated (route parameter decorator). */
export const Principal = createParamDecorator((_: unknown, ctx: ExecutionContext): AdminPrincipal => {
  const principal = ctx.switchToHttp().getRequest<AdminRequest>()[ADMIN_PRINCIPAL];
  if (!principal) throw new Error('Principal used on a route without the admin guard');
  return principal;
});

/** Whether `principal` may act on `appToken` (an admin or an auditor: every app; an app_admin: its own). */
export function coversApp(principal: AdminPrincipal, appToken: string): boolean {
  return principal.role !== 'app_admin' || principal.apps.includes(appToken);
}
