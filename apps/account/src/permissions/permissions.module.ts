import { Module } from '@nestjs/common';
import { AuthGroupsModule } from '../auth-groups/auth-groups.module';
import { AuthsModule } from '../auths/auths.module';
import { UsersModule } from '../users/users.module';
import { PermissionsController } from './permissions.controller';
import { PermissionsService } from './permissions.service';

/** A user's effective permissions (interfaces 205, 206). */
@Module({
  imports: [AuthsModule, AuthGroupsModule, UsersModule],
  controllers: [PermissionsController],
  providers: [PermissionsService],
})
export class PermissionsModule {}
