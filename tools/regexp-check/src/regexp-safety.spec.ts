/**
 * docs/contract.md §13: no request may hold an event loop for long, so no regular expression
 * of the source may take super-linear time on what it is given. Every regular-expression
 * literal and every `new RegExp(…)` of the source is collected from the code (parsed, not
 * listed by hand) and judged by `recheck`; anything not judged `safe` fails, with its place
 * and recheck's attack string. `eslint-plugin-regexp` applies the same rule while editing
 * (eslint.config.mjs).
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkSync } from 'recheck';
import { type FoundRegExp, collectRegExps, sourceFiles } from './collect';

const root = join(__dirname, '../../..');

/** Where the source is: every app's and lib's `src`, the tools, the scripts and the bench. */
function sourceDirs(): string[] {
  const dirs: string[] = [];
  for (const group of ['apps', 'libs', 'tools']) {
    for (const name of readdirSync(join(root, group))) dirs.push(join(root, group, name, 'src'));
  }
  dirs.push(join(root, 'scripts'), join(root, 'bench'));
  return dirs;
}

/**
 * A pattern built at run time cannot be judged here: only test code may build one (it sees no
 * request data), i.e. spec files and the test-support library.
 */
function isTestCode(at: string): boolean {
  return /\.spec\.tsx?:/.test(at) || at.startsWith('libs/testing/');
}

describe('regular expressions of the source', () => {
  const files = sourceDirs().flatMap((dir) => sourceFiles(dir));
  const { found, dynamic } = collectRegExps(root, files);

  it('are found in the source', () => {
    // The collector parses the code: if it finds none, it is broken, not the code clean.
    expect(files.length).toBeGreaterThan(100);
    expect(found.length).toBeGreaterThan(50);
    expect(files.map((f) => relative(root, f))).toEqual(expect.arrayContaining(['libs/observability/src/redact.ts', 'scripts/test.mjs']));
  });

  it('are never built from run-time text outside test code', () => {
    expect(dynamic.filter((d) => !isTestCode(d.at))).toEqual([]);
  });

  it('all run in linear time (recheck)', () => {
    const unique = new Map<string, FoundRegExp[]>();
    for (const re of found) {
      const key = `/${re.source}/${re.flags}`;
      unique.set(key, [...(unique.get(key) ?? []), re]);
    }
    const unsafe: string[] = [];
    for (const [key, places] of unique) {
      const { source, flags } = places[0]!;
      const result = checkSync(source, flags, { timeout: 20_000 });
      if (result.status !== 'safe') {
        const why =
          result.status === 'vulnerable'
            ? `${result.complexity.type}${result.complexity.type === 'polynomial' ? ` (degree ${result.complexity.degree})` : ''}, attack ${JSON.stringify(result.attack.pattern)}`
            : `${result.status}: ${'error' in result ? JSON.stringify(result.error) : ''}`;
        unsafe.push(`${key} at ${places.map((p) => p.at).join(', ')}: ${why}`);
      }
    }
    console.log(
      `recheck: ${found.length} regular expressions (${unique.size} distinct) in ${files.length} files checked; ${unsafe.length} not safe` +
        (dynamic.length > 0 ? `; ${dynamic.length} built at run time in test code, not checked` : ''),
    );
    expect(unsafe).toEqual([]);
  });
});
