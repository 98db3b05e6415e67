import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** A file (or folder) and what it imports, by path. */
export type ImportGraph = Map<string, Set<string>>;

/** Test files and declarations: they may import anything, nothing imports them. */
const NOT_SOURCE = /\.(spec|e2e-spec|reliability|d)\.tsx?$/;

/** Every TypeScript source file under `dir` (tests, declarations and `node_modules` left out), relative to `dir`. */
export function sourceFiles(dir: string, under = dir): string[] {
  return readdirSync(under, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(under, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(dir, full);
    return /\.tsx?$/.test(entry.name) && !NOT_SOURCE.test(entry.name) ? [path.relative(dir, full)] : [];
  });
}

/**
 * The import graph of the sources under `dir`: each file (relative to `dir`) and the files it
 * imports by relative path (types included; packages and files outside `dir` left out).
 */
export function importGraph(dir: string): ImportGraph {
  // Loaded only by the tests that read a graph.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(dir)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(dir, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((ref) => ref.fileName)
      .filter((name) => name.startsWith('.') && !isAsset(path.resolve(dir, path.dirname(file), name)))
      .map((name) => {
        const target = path.resolve(dir, path.dirname(file), name.replace(/\.js$/, ''));
        const found = [`${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')].find((candidate) => existsSync(candidate));
        if (!found) throw new Error(`${file}: cannot resolve ${name}`);
        return path.relative(dir, found);
      })
      .filter((target) => !target.startsWith('..'));
    graph.set(file, new Set(targets));
  }
  return graph;
}

/** An imported file that is not code (a style sheet, JSON): it imports nothing. */
function isAsset(target: string): boolean {
  return /\.(css|json|svg|png|html)$/.test(target) && existsSync(target);
}

/** The graph of the folders `folderOf` puts the files in: an edge where a file imports a file of another folder. */
export function folderGraph(files: ImportGraph, folderOf: (file: string) => string): ImportGraph {
  const folders: ImportGraph = new Map();
  for (const [file, imported] of files) {
    const from = folderOf(file);
    const edges = folders.get(from) ?? new Set<string>();
    for (const to of imported) if (folderOf(to) !== from) edges.add(folderOf(to));
    folders.set(from, edges);
  }
  return folders;
}

/** The groups of nodes that reach each other (Tarjan): those of more than one node, and self-loops. */
export function cycles(graph: ImportGraph): string[][] {
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
