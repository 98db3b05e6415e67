import { Module } from '@nestjs/common';
import { AppsModule } from '../apps/apps.module';
import { LoginModule } from '../login/login.module';
import { LockoutsController } from './lockouts.controller';
import { LockoutsService } from './lockouts.service';

/** Unlocking users' login ids from the admin API (docs/contract.md §14). */
@Module({
  imports: [AppsModule, LoginModule],
  controllers: [LockoutsController],
  providers: [LockoutsService],
})
export class LockoutsModule {}
