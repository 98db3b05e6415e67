import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { LOOKUP_CACHE, type LookupCache } from '../cache/lookup-cache.port';
import { CELL_SOURCE, type CellSource } from '../cells/cell-source.port';
import { LocationConfig } from '../config/location.config';
import { GEOCODER, type Geocoder } from '../geocoder/geocoder.port';

/**
 * Readiness of the lookups. The geocoder and the cell source are built (offline data
 * loaded) before the service listens, so once it answers they are there. The cache is never
 * a reason to be unready: without Redis the answers come from the upstream, so a Redis
 * outage, or a Redis Cluster that cannot serve (CLUSTERDOWN), is reported as "degraded". While
 * degraded, each readiness check reads one key that is never written, so that the cache shows
 * `up` again by itself once Redis serves, traffic or not.
 */
@Injectable()
export class LookupHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(GEOCODER) private readonly geocoder: Geocoder,
    @Inject(CELL_SOURCE) private readonly cells: CellSource,
    @Inject(LOOKUP_CACHE) private readonly cache: LookupCache,
    private readonly config: LocationConfig,
  ) {}

  geocoderLoaded() {
    return this.indicators.check('geocoder').up({ adapter: this.geocoder.name });
  }

  cellsLoaded() {
    return this.indicators.check('cells').up({ source: this.cells.name });
  }

  async cacheReachable() {
    const check = this.indicators.check('cache');
    if (this.cache.reachable?.() === false && this.cache.probe) await this.cache.probe(`${this.config.CACHE_KEY_PREFIX}health-probe`);
    if (this.cache.reachable?.() === false) {
      return check.degraded({
        backend: this.cache.name,
        message: `${this.cache.name} unreachable: answering from the upstream without a cache`,
      });
    }
    return check.up({ backend: this.cache.name });
  }
}
