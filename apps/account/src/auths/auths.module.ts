import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthEntity } from './auth.entity';
import { AuthsController } from './auths.controller';
import { AuthsRepository } from './auths.repository';
import { AuthsService } from './auths.service';

@Module({
  imports: [TypeOrmModule.forFeature([AuthEntity])],
  controllers: [AuthsController],
  providers: [AuthsService, AuthsRepository],
  exports: [AuthsService, AuthsRepository],
})
export class AuthsModule {}
