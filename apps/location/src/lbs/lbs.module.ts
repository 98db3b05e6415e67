import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { type AppLogger, InjectAppLogger } from '@geoaccount/observability';
import { CacheModule } from '../cache/cache.module';
import { CellsModule } from '../cells/cells.module';
import { MainlandChinaModule } from '../geo/mainland-china.module';
import { GeocoderModule } from '../geocoder/geocoder.module';
import { LbsAccountingMiddleware, accountingOn } from './lbs-accounting.middleware';
import { LbsController } from './lbs.controller';
import { LbsService } from './lbs.service';

@Module({
  imports: [GeocoderModule.forRoot(), CellsModule.forRoot(), CacheModule.forRoot(), MainlandChinaModule],
  controllers: [LbsController],
  providers: [LbsService],
  // The health checks read the adapters' state.
  exports: [GeocoderModule, CellsModule, CacheModule],
})
export class LbsModule implements NestModule {
  constructor(@InjectAppLogger() private readonly logger: AppLogger) {}

  /** The accounting lines are `info`: below that level the middleware is not even mounted. */
  configure(consumer: MiddlewareConsumer): void {
    if (accountingOn(this.logger)) consumer.apply(LbsAccountingMiddleware).forRoutes(LbsController);
  }
}
