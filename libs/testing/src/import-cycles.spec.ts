/**
 * No file cycle anywhere in the project: the sources of every app, library, test suite and
 * tool form an acyclic import graph (between projects, Nx's module boundaries forbid cycles).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { cycles, importGraph } from './import-graph';

const ROOT = path.resolve(__dirname, '../../..');

/** Every project's source folder: `src` where there is one, the project folder otherwise. */
const roots = ['apps', 'libs', 'tests', 'tools'].flatMap((group) =>
  readdirSync(path.join(ROOT, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(group, entry.name)),
);

describe('the import graph of the whole project', () => {
  it.each(roots)('%s has no file cycle', (root) => {
    expect(cycles(importGraph(path.join(ROOT, root)))).toEqual([]);
  });

  it('finds every project', () => {
    expect(roots).toEqual(expect.arrayContaining(['apps/account', 'apps/location', 'apps/console', 'libs/api', 'tests/reliability']));
  });
});

describe('cycles', () => {
  it('finds a cycle of files, a self-import, and nothing in a tree', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['d.ts', 'a.ts'])],
      ['e.ts', new Set(['a.ts'])],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    expect(cycles(new Map([['x.ts', new Set(['y.ts'])], ['y.ts', new Set<string>()]]))).toEqual([]);
  });
});
