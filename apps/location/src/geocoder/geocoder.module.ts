import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Metrics } from '@geoaccount/observability';
import { LocationConfig } from '../config/location.config';
import { MainlandChina } from '../geo/mainland-china';
import { MainlandChinaModule } from '../geo/mainland-china.module';
import { createGeocoder } from './geocoder.factory';
import { GEOCODER, type Geocoder } from './geocoder.port';

/** Provides the `Geocoder` chosen by `GEOCODER` and closes it on shutdown. The offline one shares the app's `MainlandChina`. */
@Module({})
export class GeocoderModule implements OnApplicationShutdown {
  constructor(@Inject(GEOCODER) private readonly geocoder: Geocoder) {}

  static forRoot(): DynamicModule {
    return {
      module: GeocoderModule,
      imports: [MainlandChinaModule],
      providers: [
        {
          provide: GEOCODER,
          inject: [LocationConfig, Metrics, MainlandChina],
          useFactory: (config: LocationConfig, metrics: Metrics, mainland: MainlandChina) => createGeocoder(config, metrics, mainland),
        },
      ],
      exports: [GEOCODER],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.geocoder.close?.();
  }
}
