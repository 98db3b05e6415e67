import { asAppToken } from '../common/app-scope';
import { Body, Delete, HttpCode, Post } from '@nestjs/common';
import { accountOk } from '@geoaccount/api';
import { AdminController } from '../admin-sessions/admin-controller';
import { AdminOperation } from '../admin-sessions/admin-openapi';
import { AdminPath, adminPathSchema } from '../admin-sessions/admin-path';
import { AdminPermission } from '../admin-sessions/admin-permission';
import { type AdminPrincipal, Principal } from '../admin-sessions/admin-principal';
import { AppCodes } from '../apps/apps.codes';
import { ISSUED_CREDENTIAL_SCHEMA } from '../apps/app.view';
import { CredentialCodes } from './credentials.codes';
import { CredentialsService } from './credentials.service';
import { IssueCredentialDto } from './dto/issue-credential.dto';

/** An app's credentials (docs/contract.md §14): admin, or an app_admin of the app. */
@AdminController('apps/:app_token/credentials')
export class CredentialsController {
  constructor(private readonly credentials: CredentialsService) {}

  @Post()
  @HttpCode(201)
  @AdminPermission('credentials.write')
  @AdminOperation({
    operationId: 'issueCredential',
    summary: 'Issue a credential',
    description:
      'A new (secret, aes_key) pair, answered only here, once. At most two are active (409 30120); with `retire_others_in` ' +
      '(seconds, 60 to 2592000) the other active credential gets that `expire_time` and is refused from then on.',
    status: 201,
    path: adminPathSchema('app_token'),
    body: IssueCredentialDto,
    answer: ISSUED_CREDENTIAL_SCHEMA,
    codes: [AppCodes.NOT_FOUND, CredentialCodes.TWO_ACTIVE, AppCodes.CONFIG_READ_ONLY],
  })
  async issue(@Principal() actor: AdminPrincipal, @AdminPath('app_token') appToken: string, @Body() dto: IssueCredentialDto) {
    return accountOk(true, { ...(await this.credentials.issue(actor, asAppToken(appToken), dto.retire_others_in)) });
  }

  @Delete(':credential_id')
  @AdminPermission('credentials.write')
  @AdminOperation({
    operationId: 'revokeCredential',
    summary: 'Revoke a credential',
    description: 'Refused from now on, on every account instance within 5 s and every location instance within 15 s.',
    status: 200,
    path: { ...adminPathSchema('app_token'), ...adminPathSchema('credential_id') },
    codes: [AppCodes.NOT_FOUND, CredentialCodes.NOT_FOUND, AppCodes.CONFIG_READ_ONLY],
  })
  async revoke(
    @Principal() actor: AdminPrincipal,
    @AdminPath('app_token') appToken: string,
    @AdminPath('credential_id') credentialId: string,
  ) {
    await this.credentials.revoke(actor, asAppToken(appToken), credentialId);
    return accountOk(false);
  }
}
