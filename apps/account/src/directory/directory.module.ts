import { type DynamicModule, Module } from '@nestjs/common';
import type { DirectoryConfig } from '../config/directory.config';
import { DirectoryService } from './directory.service';
import { DIRECTORY_CONFIG } from './directory.tokens';

/** The directories that check domain users' passwords (docs/contract.md §9). */
@Module({})
export class DirectoryModule {
  static forRoot(config: DirectoryConfig): DynamicModule {
    return {
      module: DirectoryModule,
      global: true,
      providers: [{ provide: DIRECTORY_CONFIG, useValue: config }, DirectoryService],
      exports: [DirectoryService],
    };
  }
}
