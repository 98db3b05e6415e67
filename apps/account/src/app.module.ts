import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { FormBodyMiddleware } from '@geoaccount/api';
import { RateLimitModule } from '@geoaccount/http';
import { ObservabilityModule } from '@geoaccount/observability';
import { type AppRegistry, callerKeyOf } from '@geoaccount/signing';
import { AuditModule } from './audit/audit.module';
import { AuthGroupsModule } from './auth-groups/auth-groups.module';
import { AuthsModule } from './auths/auths.module';
import { CoreModule } from './common/core.module';
import type { AccountConfig } from './config/account.config';
import type { DirectoryConfig } from './config/directory.config';
import { DatabaseModule } from './database/database.module';
import { DirectoryModule } from './directory/directory.module';
import { HealthModule } from './health/health.module';
import { LoginModule } from './login/login.module';
import { PermissionsModule } from './permissions/permissions.module';
import { PiiModule } from './pii/pii.module';
import { UsersModule } from './users/users.module';

@Module({})
export class AppModule implements NestModule {
  static forRoot(config: AccountConfig, registry: AppRegistry, directories: DirectoryConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ObservabilityModule.forRoot({
          service: 'account',
          logLevel: config.LOG_LEVEL,
          metricsListen: config.METRICS_PORT === undefined ? undefined : { port: config.METRICS_PORT, host: config.HOST },
        }),
        // Per calling app and instance, after the signature guard.
        RateLimitModule.forRoot({ perMinute: config.RATE_LIMIT_PER_MINUTE, keyOf: callerKeyOf }),
        CoreModule.forRoot(config, registry),
        DatabaseModule.forRoot(config),
        DirectoryModule.forRoot(directories),
        PiiModule.forRoot(config),
        AuditModule,
        AuthsModule,
        AuthGroupsModule,
        UsersModule,
        LoginModule,
        PermissionsModule,
        HealthModule,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(FormBodyMiddleware).forRoutes('*');
  }
}
