/**
 * The import graph of the service's sources: no file cycle, no cycle between the folders under
 * `src`, and dependencies that point one way, from the operations down to the data:
 *
 *   lbs, health → geocoder, cells, cache → geo, geodata, upstream (config: anyone)
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = __dirname;

/** Every `.ts` source file under `src` except the tests, relative to `src`. */
function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts')
      ? [path.relative(SRC, full)]
      : [];
  });
}

/** The source files a file imports (types included; packages left out), relative to `src`. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path.join(SRC, file), 'utf8'), true, true);
  return importedFiles
    .map((ref) => ref.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => {
      const target = path.resolve(SRC, path.dirname(file), name);
      const found = [`${target}.ts`, path.join(target, 'index.ts')].find((candidate) => existsSync(candidate));
      if (!found) throw new Error(`${file}: cannot resolve ${name}`);
      return path.relative(SRC, found);
    });
}

/** The groups of nodes that reach each other (Tarjan), only those of more than one node or a self-loop. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || graph.get(node)?.has(node)) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The folder under `src` a file belongs to (`geocoder/offline/x.ts` → `geocoder`); `.` for the top-level files. */
const folderOf = (file: string): string => (file.includes(path.sep) ? file.split(path.sep)[0]! : '.');

/** What each folder may import, besides itself and `config`. */
const LAYERS: Record<string, readonly string[]> = {
  '.': ['lbs', 'health', 'geocoder', 'cells', 'cache', 'geo', 'geodata', 'upstream'],
  lbs: ['geocoder', 'cells', 'cache', 'geo', 'geodata', 'upstream'],
  health: ['lbs', 'geocoder', 'cells', 'cache'],
  geocoder: ['geo', 'geodata', 'upstream'],
  cells: ['geo', 'geodata', 'upstream'],
  cache: [],
  geo: ['geodata'],
  geodata: [],
  upstream: [],
  config: [],
};

describe('the import graph of the location service', () => {
  const files = new Map(sources().map((file) => [file, new Set(importsOf(file))]));
  const folders = new Map<string, Set<string>>();
  for (const [file, imported] of files) {
    const from = folderOf(file);
    const edges = folders.get(from) ?? new Set<string>();
    for (const to of imported) if (folderOf(to) !== from) edges.add(folderOf(to));
    folders.set(from, edges);
  }

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
