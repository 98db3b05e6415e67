import { Module } from '@nestjs/common';
import { APP_REGISTRY, AppRegistry } from '@geoaccount/signing';
import { LocationConfig } from './config/location.config';
import { HealthController } from './health.controller';

@Module({})
export class AppModule {
  static forRoot(config: LocationConfig, registry: AppRegistry) {
    return {
      module: AppModule,
      controllers: [HealthController],
      providers: [
        { provide: LocationConfig, useValue: config },
        { provide: APP_REGISTRY, useValue: registry },
      ],
    };
  }
}
