import { Global, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { AdminAuditEventsController } from './admin-audit-events.controller';
import { AuditEventsController } from './audit-events.controller';
import { AuditEventsRepository } from './audit-events.repository';
import { AuditEventsService } from './audit-events.service';
import { AuditOriginMiddleware } from './audit-origin';
import { AuditPartitions } from './audit-partitions';
import { AuditTrail } from './audit-trail';

/** The audit trail (CONTRACT §10): the writer every changing service uses, interface 207, partitions. */
@Global()
@Module({
  controllers: [AuditEventsController, AdminAuditEventsController],
  providers: [AuditTrail, AuditEventsRepository, AuditEventsService, AuditPartitions],
  exports: [AuditTrail, AuditEventsService],
})
export class AuditModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AuditOriginMiddleware).forRoutes('*');
  }
}
