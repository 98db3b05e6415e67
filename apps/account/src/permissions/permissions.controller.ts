import { Controller, Get, Query } from '@nestjs/common';
import { AccountCodes, AccountInterface, accountOk, ApiException, ApiInterface, NoFieldsQuery } from '@geoaccount/api';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { PermissionsService } from './permissions.service';

/** Effective permissions of a user (numbers 205 and 206, beyond the spec, built its way). */
@Controller(`${ACCOUNT_API_PREFIX}/users/:user_login_id/auths`)
export class PermissionsController {
  constructor(private readonly permissions: PermissionsService) {}

  @Get()
  @ApiInterface(AccountInterface.USER_AUTHS)
  async effective(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Query() _query: NoFieldsQuery) {
    const list = await this.permissions.effective(app.appToken, user_login_id);
    const fields = { count: String(list.length), list };
    if (list.length === 0) throw new ApiException(AccountCodes.USER_AUTHS_EMPTY, undefined, fields);
    return accountOk(false, fields);
  }

  @Get(':auth_id')
  @ApiInterface(AccountInterface.USER_HAS_AUTH)
  async holds(
    @CallerApp() app: RegisteredApp,
    @PathId('user_login_id') user_login_id: string,
    @PathId('auth_id') auth_id: string,
    @Query() _query: NoFieldsQuery,
  ) {
    const { has, via } = await this.permissions.holds(app.appToken, user_login_id, auth_id);
    return accountOk(false, { user_login_id, auth_id, has_auth: has ? '1' : '0', via });
  }
}
