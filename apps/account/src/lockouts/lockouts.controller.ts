import { asAppToken } from '../common/app-scope';
import { Delete } from '@nestjs/common';
import { accountOk } from '@geoaccount/api';
import { AdminController } from '../admin-sessions/admin-controller';
import { AdminOperation } from '../admin-sessions/admin-openapi';
import { AdminPath, adminPathSchema } from '../admin-sessions/admin-path';
import { AdminPermission } from '../admin-sessions/admin-permission';
import { type AdminPrincipal, Principal } from '../admin-sessions/admin-principal';
import { AppCodes } from '../apps/apps.codes';
import { LockoutCodes } from './lockouts.codes';
import { LockoutsService } from './lockouts.service';

/** A user's login lock of an app (docs/contract.md §14): admin, or an app_admin of the app. */
@AdminController('apps/:app_token/lockouts')
export class LockoutsController {
  constructor(private readonly lockouts: LockoutsService) {}

  @Delete(':user_login_id')
  @AdminPermission('lockouts.write')
  @AdminOperation({
    operationId: 'unlockUser',
    summary: 'Unlock a login id',
    description: "Clears the login id's failed logins and lock (recorded as a `modify` of the user); 404 30401 when it is not locked.",
    status: 200,
    path: { ...adminPathSchema('app_token'), ...adminPathSchema('user_login_id') },
    codes: [AppCodes.NOT_FOUND, LockoutCodes.NOT_LOCKED],
  })
  async unlock(
    @Principal() actor: AdminPrincipal,
    @AdminPath('app_token') appToken: string,
    @AdminPath('user_login_id') userLoginId: string,
  ) {
    await this.lockouts.unlock(actor, asAppToken(appToken), userLoginId);
    return accountOk(false);
  }
}
