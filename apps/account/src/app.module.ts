import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { FormBodyMiddleware, JsonBodyMiddleware } from '@geoaccount/api';
import { RateLimitModule } from '@geoaccount/http';
import { ObservabilityModule } from '@geoaccount/observability';
import { type AppRegistry, callerKeyOf } from '@geoaccount/signing';
import { AdminSessionsModule } from './admin-sessions/admin-sessions.module';
import { ConsoleProxyModule } from './console-proxy/console-proxy.module';
import { AppsModule } from './apps/apps.module';
import { AuditModule } from './audit/audit.module';
import { AuthGroupsModule } from './auth-groups/auth-groups.module';
import { AuthsModule } from './auths/auths.module';
import { CoreModule } from './common/core.module';
import type { AccountConfig } from './config/account.config';
import type { DirectoryConfig } from './config/directory.config';
import { DatabaseModule } from './database/database.module';
import { DirectoryModule } from './directory/directory.module';
import { HealthModule } from './health/health.module';
import { InternalModule } from './internal/internal.module';
import { LockoutsModule } from './lockouts/lockouts.module';
import { LoginModule } from './login/login.module';
import { OperatorsModule } from './operators/operators.module';
import { PermissionsModule } from './permissions/permissions.module';
import { PiiModule } from './pii/pii.module';
import { UsersModule } from './users/users.module';

/** Routes whose bodies are JSON documents (docs/contract.md §14). */
const JSON_ROUTES = ['admin/{*path}', 'internal/{*path}'];

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
        // The control plane (docs/contract.md §14).
        AdminSessionsModule,
        ConsoleProxyModule,
        AppsModule,
        OperatorsModule,
        LockoutsModule,
        InternalModule,
        HealthModule,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // The signed API takes form fields (or JSON of strings); the admin and internal APIs take JSON.
    consumer.apply(FormBodyMiddleware).exclude(...JSON_ROUTES).forRoutes('*');
    consumer.apply(JsonBodyMiddleware).forRoutes(...JSON_ROUTES);
  }
}
