import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { AccountCodes, AccountInterface, accountOk, ApiException, ApiInterface, NoFieldsQuery } from '@geoaccount/api';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { ListUsersQuery } from './dto/list-users.query';
import { ModifyUserDto } from './dto/modify-user.dto';
import { RegisterUserDto } from './dto/register-user.dto';
import { UsersService } from './users.service';

/** Interfaces 9-12 of the spec (numbers 200-203). */
@Controller(`${ACCOUNT_API_PREFIX}/users`)
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post(':user_login_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.REGISTER_USER)
  async register(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Body() dto: RegisterUserDto) {
    const userId = await this.users.register(app.appToken, user_login_id, dto);
    return accountOk(true, { user_id: userId });
  }

  @Put(':user_login_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.MODIFY_USER)
  async modify(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Body() dto: ModifyUserDto) {
    await this.users.modify(app.appToken, user_login_id, dto);
    return accountOk(true);
  }

  @Get()
  @ApiInterface(AccountInterface.LIST_USERS)
  async list(@CallerApp() app: RegisteredApp, @Query() query: ListUsersQuery) {
    const { total, users } = await this.users.list(app.appToken, query);
    const fields = { count: String(total), user_list: users, list: users };
    if (total === 0) throw new ApiException(AccountCodes.USER_LIST_EMPTY, undefined, fields);
    return accountOk(false, fields);
  }

  @Get(':user_login_id')
  @ApiInterface(AccountInterface.GET_USER)
  async get(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Query() _query: NoFieldsQuery) {
    return accountOk(false, { ...(await this.users.get(app.appToken, user_login_id)) });
  }
}
