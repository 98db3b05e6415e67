import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { Response } from 'express';
import { ShutdownState } from '@geoaccount/http';
import { healthResponse, shutdownIndicator } from '@geoaccount/observability';
import { DatabaseHealthIndicator } from './database.health';
import { DirectoryHealthIndicator } from './directory.health';
import { PiiKeysHealthIndicator } from './pii-keys.health';

/** Kubernetes probes (outside the signed API). */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly shutdown: ShutdownState,
    private readonly database: DatabaseHealthIndicator,
    private readonly directory: DirectoryHealthIndicator,
    private readonly piiKeys: PiiKeysHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness: the process is up and serving HTTP' })
  live(@Res({ passthrough: true }) res: Response) {
    return healthResponse(res, () => this.health.check([]));
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({
    summary:
      'Readiness: PostgreSQL reachable, schema migrated, every key id of the stored personal data in PII_KEYS, not shutting down (directories: a detail, never down)',
  })
  ready(@Res({ passthrough: true }) res: Response) {
    return healthResponse(res, () =>
      this.health.check([
        shutdownIndicator(this.shutdown, this.indicators),
        () => this.database.database(),
        () => this.database.migrations(),
        () => this.piiKeys.piiKeys(),
        ...(this.directory.configured ? [() => this.directory.directories()] : []),
      ]),
    );
  }
}
