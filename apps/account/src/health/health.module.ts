import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from './database.health';
import { DatabaseMetrics } from './database.metrics';
import { DirectoryHealthIndicator } from './directory.health';
import { HealthController } from './health.controller';
import { PiiKeysHealthIndicator } from './pii-keys.health';

/** `/health/live`, `/health/ready` and the database pool metrics. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [DatabaseHealthIndicator, DirectoryHealthIndicator, PiiKeysHealthIndicator, DatabaseMetrics],
})
export class HealthModule {}
