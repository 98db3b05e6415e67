import path from 'node:path';
import { Module } from '@nestjs/common';
import { WORLD_COUNTRIES_FILE, defaultDataDir } from '../geodata/geodata-files';
import { MainlandChina } from './mainland-china';

/** Loads the test of where the GCJ-02 shift applies from the app's country borders asset. */
export function loadMainlandChina(): Promise<MainlandChina> {
  return MainlandChina.load(path.join(defaultDataDir(), WORLD_COUNTRIES_FILE));
}

/**
 * Provides `MainlandChina`, loaded once at start whatever the geocoder (a few milliseconds,
 * about 0.1 MB), for the datum conversion of every adapter; the offline geocoder takes its
 * country borders from it.
 */
@Module({
  providers: [{ provide: MainlandChina, useFactory: loadMainlandChina }],
  exports: [MainlandChina],
})
export class MainlandChinaModule {}
