import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { FormBodyMiddleware } from '@geoaccount/api';
import type { AppRegistry } from '@geoaccount/signing';
import { AuthGroupsModule } from './auth-groups/auth-groups.module';
import { AuthsModule } from './auths/auths.module';
import { CoreModule } from './common/core.module';
import type { AccountConfig } from './config/account.config';
import { DatabaseModule } from './database/database.module';
import { HealthController } from './health.controller';
import { LoginModule } from './login/login.module';
import { PermissionsModule } from './permissions/permissions.module';
import { UsersModule } from './users/users.module';

@Module({})
export class AppModule implements NestModule {
  static forRoot(config: AccountConfig, registry: AppRegistry): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, registry),
        DatabaseModule.forRoot(config),
        AuthsModule,
        AuthGroupsModule,
        UsersModule,
        LoginModule,
        PermissionsModule,
      ],
      controllers: [HealthController],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(FormBodyMiddleware).forRoutes('*');
  }
}
