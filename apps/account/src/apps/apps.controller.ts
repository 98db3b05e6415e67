import { asAppToken } from '../common/app-scope';
import { Body, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { accountOk } from '@geoaccount/api';
import { AdminController } from '../admin-sessions/admin-controller';
import { AdminOperation } from '../admin-sessions/admin-openapi';
import { AdminPath, adminPathSchema } from '../admin-sessions/admin-path';
import { AdminPermission } from '../admin-sessions/admin-permission';
import { type AdminPrincipal, Principal } from '../admin-sessions/admin-principal';
import { APP_FIELDS, ISSUED_CREDENTIAL_SCHEMA } from './app.view';
import { AppCodes } from './apps.codes';
import { AppsService } from './apps.service';
import { CreateAppDto } from './dto/create-app.dto';
import { ModifyAppDto } from './dto/modify-app.dto';

const APP_ANSWER = { type: 'object', properties: APP_FIELDS, required: Object.keys(APP_FIELDS) };

/** Apps of the control plane (docs/contract.md §14). */
@AdminController('apps')
export class AppsController {
  constructor(private readonly apps: AppsService) {}

  @Post()
  @HttpCode(201)
  @AdminPermission('apps.write')
  @AdminOperation({
    operationId: 'createApp',
    summary: 'Create an app',
    description:
      'A new app (`app_token`: `app-` + 32 hex) with its first credential; `credential` carries its secret and AES key, answered only here, once.',
    status: 201,
    body: CreateAppDto,
    answer: {
      type: 'object',
      properties: { ...APP_FIELDS, credential: ISSUED_CREDENTIAL_SCHEMA },
      required: [...Object.keys(APP_FIELDS), 'credential'],
    },
  })
  async create(@Principal() actor: AdminPrincipal, @Body() dto: CreateAppDto) {
    const { app, credential } = await this.apps.create(actor, dto);
    return accountOk(true, { ...app, credential });
  }

  @Get()
  @AdminPermission('apps.read')
  @AdminOperation({
    operationId: 'listApps',
    summary: 'List apps',
    description: 'Every app (`APP_CREDENTIALS` apps with `source` "config", read-only); an app_admin sees its apps. Never a secret.',
    status: 200,
    answer: {
      type: 'object',
      properties: { count: { type: 'string', pattern: '^\\d+$' }, app_list: { type: 'array', items: { $ref: '#/components/schemas/AdminApp' } } },
      required: ['count', 'app_list'],
    },
  })
  async list(@Principal() principal: AdminPrincipal) {
    const apps = await this.apps.list(principal);
    return accountOk(false, { count: String(apps.length), app_list: apps });
  }

  @Get(':app_token')
  @AdminPermission('apps.read')
  @AdminOperation({
    operationId: 'getApp',
    summary: 'Read an app',
    description: 'The app and its credentials (never a secret).',
    status: 200,
    path: adminPathSchema('app_token'),
    answer: APP_ANSWER,
    codes: [AppCodes.NOT_FOUND],
  })
  async get(@Principal() principal: AdminPrincipal, @AdminPath('app_token') appToken: string) {
    return accountOk(false, { ...(await this.apps.get(principal, asAppToken(appToken))) });
  }

  @Patch(':app_token')
  @AdminPermission('apps.write')
  @AdminOperation({
    operationId: 'modifyApp',
    summary: 'Rename, disable or enable an app',
    description: 'A disabled app is refused by every account instance within 5 s and every location instance within 15 s.',
    status: 200,
    path: adminPathSchema('app_token'),
    body: ModifyAppDto,
    answer: APP_ANSWER,
    codes: [AppCodes.NOT_FOUND, AppCodes.CONFIG_READ_ONLY],
  })
  async modify(@Principal() actor: AdminPrincipal, @AdminPath('app_token') appToken: string, @Body() dto: ModifyAppDto) {
    return accountOk(false, { ...(await this.apps.modify(actor, asAppToken(appToken), dto)) });
  }
}
