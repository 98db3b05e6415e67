import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthGroupAuthEntity } from './auth-group-auth.entity';
import { AuthGroupEntity } from './auth-group.entity';
import { AuthGroupsController } from './auth-groups.controller';
import { AuthGroupsRepository } from './auth-groups.repository';
import { AuthGroupsService } from './auth-groups.service';

@Module({
  imports: [TypeOrmModule.forFeature([AuthGroupEntity, AuthGroupAuthEntity])],
  controllers: [AuthGroupsController],
  providers: [AuthGroupsService, AuthGroupsRepository],
  exports: [AuthGroupsRepository],
})
export class AuthGroupsModule {}
