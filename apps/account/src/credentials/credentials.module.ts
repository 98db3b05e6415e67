import { Module } from '@nestjs/common';
import { CredentialSecrets } from './credential-secrets';
import { CredentialsController } from './credentials.controller';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';
import { CredentialsSync } from './credentials-sync';

/** App credentials (docs/contract.md §14): issue, revoke, the registry's refresh, the use counter. */
@Module({
  controllers: [CredentialsController],
  providers: [CredentialsService, CredentialsRepository, CredentialSecrets, CredentialsSync],
  exports: [CredentialsService, CredentialsRepository, CredentialSecrets, CredentialsSync],
})
export class CredentialsModule {}
