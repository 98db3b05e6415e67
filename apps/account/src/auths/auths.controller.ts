import { Body, Controller, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { AccountInterface, accountOk, ApiInterface, NoFieldsQuery, writeJsonList } from '@geoaccount/api';
import type { Response } from 'express';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { AuthsService } from './auths.service';
import { CreateAuthDto } from './dto/create-auth.dto';
import { ListAuthsQuery } from './dto/list-auths.query';
import { ModifyAuthDto } from './dto/modify-auth.dto';

/** Spec endpoints 1–4 (interfaces 100–103). */
@Controller(`${ACCOUNT_API_PREFIX}/auths`)
export class AuthsController {
  constructor(private readonly auths: AuthsService) {}

  @Post(':auth_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.CREATE_AUTH)
  async create(@CallerApp() app: RegisteredApp, @PathId('auth_id') auth_id: string, @Body() dto: CreateAuthDto) {
    await this.auths.create(app.appToken, auth_id, dto);
    return accountOk(true);
  }

  @Put(':auth_id')
  @HttpCode(201)
  @ApiInterface(AccountInterface.MODIFY_AUTH)
  async modify(@CallerApp() app: RegisteredApp, @PathId('auth_id') auth_id: string, @Body() dto: ModifyAuthDto) {
    await this.auths.modify(app.appToken, auth_id, dto);
    return accountOk(true);
  }

  @Get()
  @ApiInterface(AccountInterface.LIST_AUTHS)
  async list(@CallerApp() app: RegisteredApp, @Query() query: ListAuthsQuery, @Res() res: Response): Promise<void> {
    const { count, list } = await this.auths.list(app.appToken, query);
    // Thousands of auths: written as they are serialised, not as one string.
    await writeJsonList(res, accountOk(false, { count }), 'list', list);
  }

  @Get(':auth_id')
  @ApiInterface(AccountInterface.GET_AUTH)
  async get(@CallerApp() app: RegisteredApp, @PathId('auth_id') auth_id: string, @Query() _query: NoFieldsQuery) {
    return accountOk(false, { ...(await this.auths.get(app.appToken, auth_id)) });
  }
}
