import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LbsModule } from '../lbs/lbs.module';
import { HealthController } from './health.controller';
import { LookupHealthIndicator } from './lookup.health';

/** `/health/live` and `/health/ready`. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false }), LbsModule],
  controllers: [HealthController],
  providers: [LookupHealthIndicator],
})
export class HealthModule {}
