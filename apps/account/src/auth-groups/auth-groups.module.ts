import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthGroupAuthEntity } from './auth-group-auth.entity';
import { AuthGroupEntity } from './auth-group.entity';

@Module({
  imports: [TypeOrmModule.forFeature([AuthGroupEntity, AuthGroupAuthEntity])],
})
export class AuthGroupsModule {}
