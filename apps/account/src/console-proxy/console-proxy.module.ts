import { Module } from '@nestjs/common';
import { ConsoleProxy } from './console-proxy';

/** The console's session-bound proxy to an app's data (docs/contract.md §12). */
@Module({ providers: [ConsoleProxy], exports: [ConsoleProxy] })
export class ConsoleProxyModule {}
