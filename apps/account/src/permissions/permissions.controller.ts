import { Get, Query } from '@nestjs/common';
import { accountOk, ApiInterface, NoFieldsQuery } from '@geoaccount/api';
import { AccountInterface } from '../common/account-codes';
import { listAnswer } from '../common/list-answer';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { PermissionsService } from './permissions.service';
import { AccountController, AccountOperation, closedObject, countText, listOf, text } from '../common/account-openapi';
import { appTokenOf } from '../common/app-scope';

/** Effective permissions of a user (interfaces 205 and 206, beyond the spec, built its way). */
@AccountController(`${ACCOUNT_API_PREFIX}/users/:user_login_id/auths`)
export class PermissionsController {
  constructor(private readonly permissions: PermissionsService) {}

  @Get()
  @ApiInterface(AccountInterface.USER_AUTHS)
  @AccountOperation(AccountInterface.USER_AUTHS, {
    summary: 'Effective auths of a user',
    description:
      'The auths a user holds directly, through its groups and through their ancestors, enabled ones only; none: 20511 with `count` "0".',
    answer: closedObject({ count: countText, list: listOf('AuthSummary') }),
  })
  async effective(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Query() _query: NoFieldsQuery) {
    const list = await this.permissions.effective(appTokenOf(app), user_login_id);
    const fields = { count: String(list.length), list };
    return listAnswer(AccountInterface.USER_AUTHS, list.length, fields);
  }

  @Get(':auth_id')
  @ApiInterface(AccountInterface.USER_HAS_AUTH)
  @AccountOperation(AccountInterface.USER_HAS_AUTH, {
    summary: 'Whether a user holds an auth',
    description: 'Whether the user holds the auth (`has_auth` "1" or "0") and through what (`via`: direct, a group, or an ancestor).',
    answer: closedObject({
      user_login_id: text,
      auth_id: text,
      has_auth: { type: 'string', enum: ['0', '1'] },
      via: { type: ['string', 'null'] },
    }),
  })
  async holds(
    @CallerApp() app: RegisteredApp,
    @PathId('user_login_id') user_login_id: string,
    @PathId('auth_id') auth_id: string,
    @Query() _query: NoFieldsQuery,
  ) {
    const { has, via } = await this.permissions.holds(appTokenOf(app), user_login_id, auth_id);
    return accountOk(false, { user_login_id, auth_id, has_auth: has ? '1' : '0', via });
  }
}
