import { Body, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { accountOk, ApiInterface, NoFieldsQuery } from '@geoaccount/api';
import { AccountInterface } from '../common/account-codes';
import { listAnswer } from '../common/list-answer';
import { writeJsonList } from '@geoaccount/http';
import type { Response } from 'express';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { AuthsService } from './auths.service';
import { CreateAuthDto } from './dto/create-auth.dto';
import { ListAuthsQuery } from './dto/list-auths.query';
import { ModifyAuthDto } from './dto/modify-auth.dto';
import { AccountController, AccountOperation, closedObject, countText, listOf } from '../common/account-openapi';
import { AUTH_SCHEMA } from './auth.view';
import { appTokenOf } from '../common/app-scope';

/** Interfaces 100–103. */
@AccountController(`${ACCOUNT_API_PREFIX}/auths`)
export class AuthsController {
  constructor(private readonly auths: AuthsService) {}

  @Post(':auth_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.CREATE_AUTH)
  @AccountOperation(AccountInterface.CREATE_AUTH, {
    fields: CreateAuthDto,
    summary: 'Create an auth',
    description: 'Creates the auth `auth_id` of the calling app (interface 100). `parent_auth_id` must name an existing auth of the app.',
  })
  async create(@CallerApp() app: RegisteredApp, @PathId('auth_id') auth_id: string, @Body() dto: CreateAuthDto) {
    await this.auths.create(appTokenOf(app), auth_id, dto);
    return accountOk(true);
  }

  @Put(':auth_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.MODIFY_AUTH)
  @AccountOperation(AccountInterface.MODIFY_AUTH, {
    fields: ModifyAuthDto,
    summary: 'Modify an auth',
    description:
      'Partial update (interface 101): an omitted field keeps its value, a field sent empty is set empty; an auth may not become its own ancestor.',
  })
  async modify(@CallerApp() app: RegisteredApp, @PathId('auth_id') auth_id: string, @Body() dto: ModifyAuthDto) {
    await this.auths.modify(appTokenOf(app), auth_id, dto);
    return accountOk(true);
  }

  @Get()
  @ApiInterface(AccountInterface.LIST_AUTHS)
  @AccountOperation(AccountInterface.LIST_AUTHS, {
    fields: ListAuthsQuery,
    summary: 'List auths',
    description: 'The auths of the calling app matching the filters (interface 102); no match: 10201 with `count` "0" and an empty list.',
    answer: closedObject({ count: countText, list: listOf('AuthListItem') }),
  })
  async list(@CallerApp() app: RegisteredApp, @Query() query: ListAuthsQuery, @Res() res: Response): Promise<void> {
    const { count, list } = await this.auths.list(appTokenOf(app), query);
    // Thousands of auths: written as they are serialised, not as one string.
    await writeJsonList(res, listAnswer(AccountInterface.LIST_AUTHS, Number(count), { count }), 'list', list);
  }

  @Get(':auth_id')
  @ApiInterface(AccountInterface.GET_AUTH)
  @AccountOperation(AccountInterface.GET_AUTH, {
    summary: 'Read an auth',
    description: 'One auth of the calling app (interface 103).',
    answer: AUTH_SCHEMA,
  })
  async get(@CallerApp() app: RegisteredApp, @PathId('auth_id') auth_id: string, @Query() _query: NoFieldsQuery) {
    return accountOk(false, { ...(await this.auths.get(appTokenOf(app), auth_id)) });
  }
}
