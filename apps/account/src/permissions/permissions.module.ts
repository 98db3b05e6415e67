import { Module } from '@nestjs/common';
import { AuthsModule } from '../auths/auths.module';
import { PermissionsController } from './permissions.controller';
import { PermissionsService } from './permissions.service';

/** A user's effective permissions (interfaces 205, 206). */
@Module({
  imports: [AuthsModule],
  controllers: [PermissionsController],
  providers: [PermissionsService],
})
export class PermissionsModule {}
