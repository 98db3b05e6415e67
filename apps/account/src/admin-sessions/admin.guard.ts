import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiException } from '@geoaccount/api';
import { ADMIN_PRINCIPAL, type AdminRequest } from './admin-principal';
import { PERMISSION_KEY, type Permission, ROLE_GRANTS } from './admin-permission';
import { AdminSessionCodes } from './admin-sessions.codes';
import { AdminSessionsService } from './admin-sessions.service';

/**
 * The one check of every admin route (docs/contract.md §14): authenticates the request, then
 * allows the route's declared permission by the role table; an `app_admin` only for the
 * route's `app_token` among its apps. A route without a declared permission is refused.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: AdminSessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AdminRequest>();
    const principal = await this.sessions.authenticate(req);
    const permission = this.reflector.get<Permission | undefined>(PERMISSION_KEY, context.getHandler());
    const grant = permission === undefined ? undefined : ROLE_GRANTS[principal.role][permission];
    if (!grant) throw new ApiException(AdminSessionCodes.FORBIDDEN);
    const appToken = (req.params as Record<string, unknown> | undefined)?.app_token;
    if (grant === 'own' && typeof appToken === 'string' && !principal.apps.includes(appToken))
      throw new ApiException(AdminSessionCodes.FORBIDDEN);
    req[ADMIN_PRINCIPAL] = principal;
    return true;
  }
}
