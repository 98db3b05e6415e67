import { Body, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { accountOk, ApiInterface, NoFieldsQuery } from '@geoaccount/api';
import { AccountInterface } from '../common/account-codes';
import { listAnswer } from '../common/list-answer';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { AuthGroupsService } from './auth-groups.service';
import { CreateGroupDto } from './dto/create-group.dto';
import { ListGroupsQuery } from './dto/list-groups.query';
import { ModifyGroupDto } from './dto/modify-group.dto';
import { AccountController, AccountOperation, closedObject, countText, listOf } from '../common/account-openapi';
import { GROUP_SCHEMA } from './auth-group.view';
import { appTokenOf } from '../common/app-scope';

/** Interfaces 104–107. */
@AccountController(`${ACCOUNT_API_PREFIX}/authgroups`)
export class AuthGroupsController {
  constructor(private readonly groups: AuthGroupsService) {}

  @Post(':group_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.CREATE_GROUP)
  @AccountOperation(AccountInterface.CREATE_GROUP, {
    fields: CreateGroupDto,
    summary: 'Create an auth group',
    description: 'Creates the group `group_id` of the calling app (interface 104); `group_auths` must name existing auths.',
  })
  async create(@CallerApp() app: RegisteredApp, @PathId('group_id') group_id: string, @Body() dto: CreateGroupDto) {
    await this.groups.create(appTokenOf(app), group_id, dto);
    return accountOk(true);
  }

  @Put(':group_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.MODIFY_GROUP)
  @AccountOperation(AccountInterface.MODIFY_GROUP, {
    fields: ModifyGroupDto,
    summary: 'Modify an auth group',
    description: 'Partial update (interface 105): an omitted field keeps its value, a field sent empty is set empty.',
  })
  async modify(@CallerApp() app: RegisteredApp, @PathId('group_id') group_id: string, @Body() dto: ModifyGroupDto) {
    await this.groups.modify(appTokenOf(app), group_id, dto);
    return accountOk(true);
  }

  @Get()
  @ApiInterface(AccountInterface.LIST_GROUPS)
  @AccountOperation(AccountInterface.LIST_GROUPS, {
    fields: ListGroupsQuery,
    summary: 'List auth groups',
    description: 'The groups of the calling app matching the filters (interface 106); no match: 10611 with `count` "0" and an empty list.',
    answer: closedObject({ count: countText, group_list: listOf('GroupListItem') }),
  })
  async list(@CallerApp() app: RegisteredApp, @Query() query: ListGroupsQuery) {
    const answer = await this.groups.list(appTokenOf(app), query);
    return listAnswer(AccountInterface.LIST_GROUPS, answer.group_list.length, answer);
  }

  @Get(':group_id')
  @ApiInterface(AccountInterface.GET_GROUP)
  @AccountOperation(AccountInterface.GET_GROUP, {
    summary: 'Read an auth group',
    description: 'One group with the details of its auths (interface 107).',
    answer: GROUP_SCHEMA,
  })
  async get(@CallerApp() app: RegisteredApp, @PathId('group_id') group_id: string, @Query() _query: NoFieldsQuery) {
    return accountOk(false, { ...(await this.groups.get(appTokenOf(app), group_id)) });
  }
}
