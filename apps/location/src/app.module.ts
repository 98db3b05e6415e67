import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_REGISTRY, AppRegistry } from '@geoaccount/signing';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { LocationConfig } from './config/location.config';
import { HealthController } from './health.controller';
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
    const pinoOptions = {
      level: config.LOG_LEVEL,
      // One accounting line per location request instead of pino-http's access log.
      autoLogging: false,
      quietReqLogger: true,
    };
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, registry),
        LoggerModule.forRoot({ pinoHttp: options.logStream ? [pinoOptions, options.logStream] : pinoOptions }),
        LbsModule,
      ],
      controllers: [HealthController],
    };
  }
}
