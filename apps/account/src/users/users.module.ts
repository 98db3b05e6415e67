import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordHasher } from './password-hasher';
import { UserAuthLinkEntity, UserGroupLinkEntity } from './user-links.entity';
import { UserEntity } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** Users of each app: register, modify, list, read (interfaces 200-203). */
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, UserAuthLinkEntity, UserGroupLinkEntity])],
  controllers: [UsersController],
  providers: [UsersService, UsersRepository, PasswordHasher],
  exports: [UsersService, UsersRepository, PasswordHasher],
})
export class UsersModule {}
