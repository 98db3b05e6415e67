import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { coverageDir } from './openapi-coverage-dir';

/**
 * Jest global teardown of an app's suites: how many documented answers (operation, status) the
 * run's answers covered, from what each test file saved; `OPENAPI_COVERAGE=verbose` lists the
 * others. (A global teardown runs outside jest's module mapping: plain Node here.)
 */
export default function reportCoverage(_globalConfig: unknown, projectConfig: { rootDir: string }): void {
  const dir = coverageDir(projectConfig.rootDir);
  const documented = new Set<string>();
  const seen = new Set<string>();
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const saved = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { documented: string[]; seen: string[] };
    for (const key of saved.documented) documented.add(key);
    for (const key of saved.seen) seen.add(key);
  }
  const missing = [...documented].filter((k) => !seen.has(k));
  process.stdout.write(
    `\nOpenAPI (${basename(projectConfig.rootDir)}): ${documented.size - missing.length} of ${documented.size} documented answers (operation, status) checked in this run\n`,
  );
  if (missing.length > 0 && process.env.OPENAPI_COVERAGE === 'verbose') process.stdout.write(`not answered:\n  ${missing.join('\n  ')}\n`);
}
