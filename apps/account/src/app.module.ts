import { Module } from '@nestjs/common';
import { APP_REGISTRY, AppRegistry } from '@geoaccount/signing';
import { AccountConfig } from './config/account.config';
import { HealthController } from './health.controller';

@Module({})
export class AppModule {
  static forRoot(config: AccountConfig, registry: AppRegistry) {
    return {
      module: AppModule,
      controllers: [HealthController],
      providers: [
        { provide: AccountConfig, useValue: config },
        { provide: APP_REGISTRY, useValue: registry },
      ],
    };
  }
}
