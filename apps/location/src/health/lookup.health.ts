import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { LOOKUP_CACHE, type LookupCache } from '../cache/lookup-cache.port';
import { CELL_SOURCE, type CellSource } from '../cells/cell-source.port';
import { GEOCODER, type Geocoder } from '../geocoder/geocoder.port';

/**
 * Readiness of the lookups. The geocoder and the cell source are built (offline data
 * loaded) before the service listens, so once it answers they are there. The cache is never
 * a reason to be unready: without Redis the answers come from the upstream, so a Redis
 * outage is reported as "degraded".
 */
@Injectable()
export class LookupHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(GEOCODER) private readonly geocoder: Geocoder,
    @Inject(CELL_SOURCE) private readonly cells: CellSource,
    @Inject(LOOKUP_CACHE) private readonly cache: LookupCache,
  ) {}

  geocoderLoaded() {
    return this.indicators.check('geocoder').up({ adapter: this.geocoder.name });
  }

  cellsLoaded() {
    return this.indicators.check('cells').up({ source: this.cells.name });
  }

  cacheReachable() {
    const check = this.indicators.check('cache');
    if (this.cache.reachable?.() === false) {
      return check.degraded({
        backend: this.cache.name,
        message: `${this.cache.name} unreachable: answering from the upstream without a cache`,
      });
    }
    return check.up({ backend: this.cache.name });
  }
}
