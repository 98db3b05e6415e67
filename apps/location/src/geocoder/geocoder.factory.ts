import type { Metrics } from '@geoaccount/observability';
import type { LocationConfig } from '../config/location.config';
import type { MainlandChina } from '../geo/mainland-china';
import { SERVICE_USER_AGENT } from '../upstream/upstream-http';
import { upstreamPolicyFromConfig } from '../upstream/upstream-policy';
import { AmapGeocoder } from './amap/amap.geocoder';
import type { Geocoder } from './geocoder.port';
import { NominatimGeocoder } from './nominatim/nominatim.geocoder';
import { createOfflineGeocoder } from './offline';

/** The adapter named by `GEOCODER`; `mainland`: the app's, for the offline geocoder's country borders. */
export async function createGeocoder(config: LocationConfig, metrics?: Metrics, mainland?: MainlandChina): Promise<Geocoder> {
  switch (config.GEOCODER) {
    case 'amap':
      return new AmapGeocoder(
        { key: config.AMAP_KEY ?? '', secret: config.AMAP_SECRET, baseUrl: config.AMAP_BASE_URL, userAgent: SERVICE_USER_AGENT },
        upstreamPolicyFromConfig('amap', config, metrics?.upstream('amap')),
      );
    case 'nominatim':
      return new NominatimGeocoder(
        {
          baseUrl: config.NOMINATIM_BASE_URL,
          userAgent: config.NOMINATIM_USER_AGENT,
          language: config.NOMINATIM_LANGUAGE,
          minIntervalMs: config.NOMINATIM_MIN_INTERVAL_MS,
        },
        upstreamPolicyFromConfig('nominatim', config, metrics?.upstream('nominatim')),
      );
    default:
      return createOfflineGeocoder({ mainland });
  }
}
