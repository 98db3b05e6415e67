import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { AccountInterface, accountOk, ApiInterface, NoFieldsQuery } from '@geoaccount/api';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { AuthGroupsService } from './auth-groups.service';
import { CreateGroupDto } from './dto/create-group.dto';
import { ListGroupsQuery } from './dto/list-groups.query';
import { ModifyGroupDto } from './dto/modify-group.dto';

/** Spec endpoints 5–8 (interfaces 104–107). */
@Controller(`${ACCOUNT_API_PREFIX}/authgroups`)
export class AuthGroupsController {
  constructor(private readonly groups: AuthGroupsService) {}

  @Post(':group_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.CREATE_GROUP)
  async create(@CallerApp() app: RegisteredApp, @PathId('group_id') group_id: string, @Body() dto: CreateGroupDto) {
    await this.groups.create(app.appToken, group_id, dto);
    return accountOk(true);
  }

  @Put(':group_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.MODIFY_GROUP)
  async modify(@CallerApp() app: RegisteredApp, @PathId('group_id') group_id: string, @Body() dto: ModifyGroupDto) {
    await this.groups.modify(app.appToken, group_id, dto);
    return accountOk(true);
  }

  @Get()
  @ApiInterface(AccountInterface.LIST_GROUPS)
  async list(@CallerApp() app: RegisteredApp, @Query() query: ListGroupsQuery) {
    return accountOk(false, await this.groups.list(app.appToken, query));
  }

  @Get(':group_id')
  @ApiInterface(AccountInterface.GET_GROUP)
  async get(@CallerApp() app: RegisteredApp, @PathId('group_id') group_id: string, @Query() _query: NoFieldsQuery) {
    return accountOk(false, { ...(await this.groups.get(app.appToken, group_id)) });
  }
}
