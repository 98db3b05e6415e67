import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { AppsController } from './apps.controller';
import { AppsRepository } from './apps.repository';
import { AppsService } from './apps.service';

/** Apps of the control plane (docs/contract.md §14). */
@Module({
  imports: [CredentialsModule],
  controllers: [AppsController],
  providers: [AppsService, AppsRepository],
  exports: [AppsRepository],
})
export class AppsModule {}
