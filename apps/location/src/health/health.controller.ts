import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { Response } from 'express';
import { ShutdownState } from '@geoaccount/http';
import { healthResponse, shutdownIndicator } from '@geoaccount/observability';
import { LookupHealthIndicator } from './lookup.health';

/** Kubernetes probes (outside the signed API). */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly shutdown: ShutdownState,
    private readonly lookups: LookupHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness: the process is up and serving HTTP' })
  live(@Res({ passthrough: true }) res: Response) {
    return healthResponse(res, () => this.health.check([]));
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: geocoder and cells loaded, not shutting down; Redis down is "degraded" but ready' })
  ready(@Res({ passthrough: true }) res: Response) {
    return healthResponse(res, () =>
      this.health.check([
        shutdownIndicator(this.shutdown, this.indicators),
        () => this.lookups.geocoderLoaded(),
        () => this.lookups.cellsLoaded(),
        () => this.lookups.cacheReachable(),
      ]),
    );
  }
}
