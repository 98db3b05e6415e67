import { Body, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { accountOk, ApiException, ApiInterface, NoFieldsQuery } from '@geoaccount/api';
import { AccountCodes, AccountInterface } from '../common/account-codes';
import { listAnswer } from '../common/list-answer';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { ListUsersQuery } from './dto/list-users.query';
import { ModifyUserDto } from './dto/modify-user.dto';
import { RegisterUserDto } from './dto/register-user.dto';
import { UsersService } from './users.service';
import { AccountController, AccountOperation, closedObject, countText, listOf, text } from '../common/account-openapi';
import { USER_SCHEMA } from './user.view';
import { appTokenOf } from '../common/app-scope';

/** Interfaces 200-203. */
@AccountController(`${ACCOUNT_API_PREFIX}/users`)
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post(':user_login_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.REGISTER_USER)
  @AccountOperation(AccountInterface.REGISTER_USER, {
    fields: RegisterUserDto,
    summary: 'Register a user',
    description:
      'Registers the user `user_login_id` of the calling app (interface 200); `user_auths` and `user_auth_groups` must name existing records (else 90100).',
    answer: closedObject({ user_id: text }),
  })
  async register(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Body() dto: RegisterUserDto) {
    const userId = await this.users.register(appTokenOf(app), user_login_id, dto);
    return accountOk(true, { user_id: userId });
  }

  @Put(':user_login_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.MODIFY_USER)
  @AccountOperation(AccountInterface.MODIFY_USER, {
    fields: ModifyUserDto,
    summary: 'Modify a user',
    description: 'Partial update (interface 201): an omitted field keeps its value, a field sent empty is set empty.',
  })
  async modify(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Body() dto: ModifyUserDto) {
    await this.users.modify(appTokenOf(app), user_login_id, dto);
    return accountOk(true);
  }

  @Get()
  @ApiInterface(AccountInterface.LIST_USERS)
  @AccountOperation(AccountInterface.LIST_USERS, {
    fields: ListUsersQuery,
    summary: 'List users',
    description:
      'A page of the users of the calling app (interface 202), in creation order; the page is under both `user_list` and `list`; no match: 20201 with `count` "0"; a page past the last one while there are matches: 404 20201 with the real `count` and empty arrays.',
    answer: closedObject({ count: countText, user_list: listOf('User'), list: listOf('User') }),
    extraCodes: [AccountCodes.PII_UNAVAILABLE],
  })
  async list(@CallerApp() app: RegisteredApp, @Query() query: ListUsersQuery) {
    const { total, users } = await this.users.list(appTokenOf(app), query);
    const fields = { count: String(total), user_list: users, list: users };
    // docs/contract.md §13: a page past the last one, when there are matches.
    if (total > 0 && users.length === 0) throw new ApiException(AccountCodes.USER_PAGE_MISSING, undefined, fields);
    return listAnswer(AccountInterface.LIST_USERS, total, fields);
  }

  @Get(':user_login_id')
  @ApiInterface(AccountInterface.GET_USER)
  @AccountOperation(AccountInterface.GET_USER, {
    summary: 'Read a user',
    description: 'One user of the calling app (interface 203); passwords are always null.',
    answer: USER_SCHEMA,
    extraCodes: [AccountCodes.PII_UNAVAILABLE],
  })
  async get(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Query() _query: NoFieldsQuery) {
    return accountOk(false, { ...(await this.users.get(appTokenOf(app), user_login_id)) });
  }
}
