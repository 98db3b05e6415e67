import { Controller, Get, Param } from '@nestjs/common';
import { AccountCodes, AccountInterface, ApiException, ApiInterface, accountOk } from '@geoaccount/api';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { UserLoginIdParam } from '../users/dto/user-login-id.param';
import { UserAuthParams } from './dto/user-auth.params';
import { PermissionsService } from './permissions.service';

/** Effective permissions of a user (numbers 205 and 206, beyond the spec, built its way). */
@Controller(`${ACCOUNT_API_PREFIX}/users/:user_login_id/auths`)
export class PermissionsController {
  constructor(private readonly permissions: PermissionsService) {}

  @Get()
  @ApiInterface(AccountInterface.USER_AUTHS)
  async effective(@CallerApp() app: RegisteredApp, @Param() { user_login_id }: UserLoginIdParam) {
    const list = await this.permissions.effective(app.appToken, user_login_id);
    const fields = { count: String(list.length), list };
    if (list.length === 0) throw new ApiException(AccountCodes.USER_AUTHS_EMPTY, undefined, fields);
    return accountOk(false, fields);
  }

  @Get(':auth_id')
  @ApiInterface(AccountInterface.USER_HAS_AUTH)
  async holds(@CallerApp() app: RegisteredApp, @Param() { user_login_id, auth_id }: UserAuthParams) {
    const { has, via } = await this.permissions.holds(app.appToken, user_login_id, auth_id);
    return accountOk(false, { user_login_id, auth_id, has_auth: has ? '1' : '0', via });
  }
}
