import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { LoginFailureEntity } from './login-failure.entity';
import { LoginController } from './login.controller';
import { LoginLockout } from './login-lockout';
import { LoginService } from './login.service';
import { LoginRateLimit } from './login-rate-limit';
import { PasswordVerifier } from './password-verifier';

/** Login check with lockout (interface 204). */
@Module({
  imports: [UsersModule, TypeOrmModule.forFeature([LoginFailureEntity])],
  controllers: [LoginController],
  providers: [LoginService, LoginLockout, LoginRateLimit, PasswordVerifier],
  exports: [LoginLockout, LoginRateLimit],
})
export class LoginModule {}
