import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { InternalController } from './internal.controller';
import { InternalTokenGuard } from './internal-token.guard';
import { InternalService } from './internal.service';

/** The internal API between the services (docs/contract.md §14). */
@Module({
  imports: [CredentialsModule],
  controllers: [InternalController],
  providers: [InternalService, InternalTokenGuard],
})
export class InternalModule {}
