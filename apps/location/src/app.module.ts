import { type DynamicModule, Global, Module } from '@nestjs/common';
import { RateLimitModule } from '@geoaccount/http';
import { ObservabilityModule } from '@geoaccount/observability';
import { APP_REGISTRY, AppRegistry, callerKeyOf } from '@geoaccount/signing';
import type { DestinationStream } from 'pino';
import { LocationConfig } from './config/location.config';
import { ControlPlaneModule } from './control-plane/control-plane.module';
import { HealthModule } from './health/health.module';
import { LbsModule } from './lbs/lbs.module';

export interface LocationAppOptions {
  /** Where the JSON log lines go (default: stdout). */
  logStream?: DestinationStream;
}

/** The validated configuration and the app registry, visible to every module. */
@Global()
@Module({})
class CoreModule {
  static forRoot(config: LocationConfig, registry: AppRegistry): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: LocationConfig, useValue: config },
        { provide: APP_REGISTRY, useValue: registry },
      ],
      exports: [LocationConfig, APP_REGISTRY],
    };
  }
}

@Module({})
export class AppModule {
  static forRoot(config: LocationConfig, registry: AppRegistry, options: LocationAppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, registry),
        ObservabilityModule.forRoot({
          service: 'location',
          logLevel: config.LOG_LEVEL,
          logStream: options.logStream,
          // One accounting line per location request instead of an access-log line (failures get both).
          quietPaths: ['/lbsapi/'],
          // Coordinates and addresses are personal data: no query value reaches a log (docs/contract.md §13).
          maskQueryValues: true,
          metricsListen: config.METRICS_PORT === undefined ? undefined : { port: config.METRICS_PORT, host: config.HOST },
        }),
        // Per calling app and instance, after the signature guard.
        RateLimitModule.forRoot({ perMinute: config.RATE_LIMIT_PER_MINUTE, keyOf: callerKeyOf }),
        // The apps of the account service (APPS_URL), and the credential uses reported to it.
        ControlPlaneModule.forRoot(config),
        LbsModule,
        HealthModule,
      ],
    };
  }
}
