import { existsSync } from 'node:fs';
import path from 'node:path';

/** The built assets, in the app's `src/data` (see `scripts/build-geodata.ts`). */
export const CHINA_GEODATA_FILE = 'china-geodata.bin.gz';
export const WORLD_CITIES_FILE = 'world-cities.bin.gz';
export const WORLD_COUNTRIES_FILE = 'world-countries.bin.gz';

/**
 * The default folder of the assets: the app's `src/data`, found by walking up from this file,
 * so that the sources, the compiled `dist` and the build scripts' output all find it.
 */
export function defaultDataDir(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    for (const candidate of [path.join(dir, 'data'), path.join(dir, 'src', 'data')]) {
      if (existsSync(path.join(candidate, CHINA_GEODATA_FILE))) return candidate;
    }
    dir = path.dirname(dir);
  }
  return path.resolve(__dirname, '..', 'data');
}
