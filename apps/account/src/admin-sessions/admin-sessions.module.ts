import { Global, Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module';
import { OperatorsRepository } from '../operators/operators.repository';
import { UsersModule } from '../users/users.module';
import { AdminGuard } from './admin.guard';
import { AdminSessionsController } from './admin-sessions.controller';
import { AdminSessionsRepository } from './admin-sessions.repository';
import { AdminSessionsService } from './admin-sessions.service';

/**
 * Authentication of the admin API (docs/contract.md §14): sessions, `ADMIN_TOKEN`, and the
 * guard every admin controller uses.
 */
@Global()
@Module({
  imports: [LoginModule, UsersModule],
  controllers: [AdminSessionsController],
  providers: [AdminSessionsService, AdminSessionsRepository, AdminGuard, OperatorsRepository],
  exports: [AdminSessionsService, AdminSessionsRepository, AdminGuard, OperatorsRepository],
})
export class AdminSessionsModule {}
