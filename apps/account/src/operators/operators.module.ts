import { Module } from '@nestjs/common';
import { AppsModule } from '../apps/apps.module';
import { LoginModule } from '../login/login.module';
import { UsersModule } from '../users/users.module';
import { OperatorsController } from './operators.controller';
import { OperatorsService } from './operators.service';

/** Operators of the admin API (docs/contract.md §14); their repository is shared with the sessions. */
@Module({
  imports: [AppsModule, LoginModule, UsersModule],
  controllers: [OperatorsController],
  providers: [OperatorsService],
})
export class OperatorsModule {}
