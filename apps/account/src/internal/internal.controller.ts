import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { accountOk } from '@geoaccount/api';
import { AdminOperation } from '../admin-sessions/admin-openapi';
import { CredentialUsesDto } from './dto/credential-uses.dto';
import { InternalCodes } from './internal.codes';
import { InternalTokenGuard } from './internal-token.guard';
import { InternalService } from './internal.service';

export const INTERNAL_API_PREFIX = 'internal/v1';

const INTERNAL_APP_SCHEMA = {
  type: 'object',
  properties: {
    app_token: { type: 'string' },
    aes_mode: { type: 'string', enum: ['gcm', 'ecb'] },
    credentials: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          credential_id: { type: 'string' },
          secret: { type: 'string' },
          aes_key: { type: 'string' },
          expire_time: { type: 'string', description: 'ISO 8601 UTC; `""` when not set. Refused from then on.' },
        },
        required: ['credential_id', 'secret', 'aes_key', 'expire_time'],
        additionalProperties: false,
      },
    },
  },
  required: ['app_token', 'aes_mode', 'credentials'],
  additionalProperties: false,
};

/**
 * Service to service (docs/contract.md §14), `Authorization: Bearer <INTERNAL_TOKEN>`: the
 * apps location serves, and the credential uses it reports. Marked `x-internal` in the
 * OpenAPI document: not for client apps.
 */
@Controller(INTERNAL_API_PREFIX)
@UseGuards(InternalTokenGuard)
@ApiTags('internal')
export class InternalController {
  constructor(private readonly internal: InternalService) {}

  @Get('apps')
  @AdminOperation({
    operationId: 'internalApps',
    summary: 'Active apps with their active credentials',
    description:
      'For the location service (`APPS_URL`): every enabled app of the control plane with its active credentials, secrets and AES keys in clear ' +
      '(`APP_CREDENTIALS` apps are not listed: each service reads its own). Only with `Authorization: Bearer <INTERNAL_TOKEN>`.',
    status: 200,
    open: true,
    internal: true,
    codes: [InternalCodes.BAD_TOKEN],
    answer: {
      type: 'object',
      properties: { count: { type: 'string', pattern: '^\\d+$' }, app_list: { type: 'array', items: INTERNAL_APP_SCHEMA } },
      required: ['count', 'app_list'],
    },
  })
  async apps() {
    const apps = await this.internal.apps();
    return accountOk(false, { count: String(apps.length), app_list: apps });
  }

  @Post('credential-uses')
  @HttpCode(200)
  @AdminOperation({
    operationId: 'internalCredentialUses',
    summary: 'Record credential uses',
    description:
      "Location's batch of credential uses (`time` ISO 8601), written as `last_used_time` to the minute (a later time only); unknown ids are ignored.",
    status: 200,
    open: true,
    internal: true,
    body: CredentialUsesDto,
    codes: [InternalCodes.BAD_TOKEN],
    answer: { type: 'object', properties: { count: { type: 'string', pattern: '^\\d+$' } }, required: ['count'] },
  })
  async uses(@Body() dto: CredentialUsesDto) {
    return accountOk(false, { count: String(await this.internal.recordUses(dto.uses)) });
  }
}
