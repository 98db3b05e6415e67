import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { Metrics } from '@geoaccount/observability';
import { LocationConfig } from '../config/location.config';
import { CELL_SOURCE, type CellSource } from './cell-source.port';
import { createCellSource } from './cells.factory';

/** Provides the `CellSource` chosen by `CELL_SOURCE` and closes it on shutdown. */
@Module({})
export class CellsModule implements OnApplicationShutdown {
  constructor(@Inject(CELL_SOURCE) private readonly cells: CellSource) {}

  static forRoot(): DynamicModule {
    return {
      module: CellsModule,
      providers: [
        {
          provide: CELL_SOURCE,
          inject: [LocationConfig, Metrics],
          useFactory: (config: LocationConfig, metrics: Metrics) => createCellSource(config, new Logger('Cells'), metrics),
        },
      ],
      exports: [CELL_SOURCE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.cells.close?.();
  }
}
