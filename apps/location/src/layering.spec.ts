/**
 * The import graph of the service's sources: no file cycle, no cycle between the folders under
 * `src`, and dependencies that point one way, from the operations down to the data:
 *
 *   lbs, health → geocoder, cells, cache → geo, geodata, upstream (config: anyone)
 *   control-plane (the apps learnt from the account service): imports no other folder
 */
import path from 'node:path';
import { cycles, folderGraph, importGraph } from '@geoaccount/testing';

const SRC = __dirname;

/** The folder under `src` a file belongs to (`geocoder/offline/x.ts` → `geocoder`); `.` for the top-level files. */
const folderOf = (file: string): string => (file.includes(path.sep) ? file.split(path.sep)[0]! : '.');

/** What each folder may import, besides itself and `config`. */
const LAYERS: Record<string, readonly string[]> = {
  '.': ['lbs', 'health', 'geocoder', 'cells', 'cache', 'geo', 'geodata', 'upstream', 'control-plane'],
  lbs: ['geocoder', 'cells', 'cache', 'geo', 'geodata', 'upstream'],
  health: ['lbs', 'geocoder', 'cells', 'cache'],
  geocoder: ['geo', 'geodata', 'upstream'],
  cells: ['geo', 'geodata', 'upstream'],
  cache: [],
  geo: ['geodata'],
  geodata: [],
  upstream: [],
  config: [],
  'control-plane': [],
};

describe('the import graph of the location service', () => {
  const files = importGraph(SRC);
  const folders = folderGraph(files, folderOf);

  it('finds the sources and their imports', () => {
    expect(files.get('lbs/lbs.service.ts')).toContain(path.join('cache', 'lookup-cache.port.ts'));
    expect(files.size).toBeGreaterThan(40);
  });

  it('has no file cycle', () => {
    expect(cycles(files)).toEqual([]);
  });

  it('has no folder that imports a folder importing it back', () => {
    expect(cycles(folders)).toEqual([]);
  });

  it('points one way: lbs → geocoder, cells, cache → geo, geodata, upstream', () => {
    const wrong = [...folders].flatMap(([from, to]) =>
      [...to].filter((t) => t !== 'config' && !(LAYERS[from] ?? []).includes(t)).map((t) => `${from} → ${t}`),
    );
    expect(wrong).toEqual([]);
  });
});
