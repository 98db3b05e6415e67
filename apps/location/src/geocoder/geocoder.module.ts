import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Metrics } from '@geoaccount/observability';
import { LocationConfig } from '../config/location.config';
import { createGeocoder } from './geocoder.factory';
import { GEOCODER, type Geocoder } from './geocoder.port';

/** Provides the `Geocoder` chosen by `GEOCODER` and closes it on shutdown. */
@Module({})
export class GeocoderModule implements OnApplicationShutdown {
  constructor(@Inject(GEOCODER) private readonly geocoder: Geocoder) {}

  static forRoot(): DynamicModule {
    return {
      module: GeocoderModule,
      providers: [
        {
          provide: GEOCODER,
          inject: [LocationConfig, Metrics],
          useFactory: (config: LocationConfig, metrics: Metrics) => createGeocoder(config, metrics),
        },
      ],
      exports: [GEOCODER],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.geocoder.close?.();
  }
}
