import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAPI_COVERAGE_DIR } from './openapi-files';

/**
 * Jest global teardown: how many documented answers (operation, status) the run's answers
 * covered, from what each test file saved (`saveCoverage`); `OPENAPI_COVERAGE=verbose` lists
 * the others. (A global teardown runs outside jest's module mapping: plain Node here.)
 */
export default function reportCoverage(): void {
  const documented = new Set<string>();
  const seen = new Set<string>();
  for (const name of existsSync(OPENAPI_COVERAGE_DIR) ? readdirSync(OPENAPI_COVERAGE_DIR) : []) {
    const saved = JSON.parse(readFileSync(join(OPENAPI_COVERAGE_DIR, name), 'utf8')) as { documented: string[]; seen: string[] };
    for (const key of saved.documented) documented.add(key);
    for (const key of saved.seen) seen.add(key);
  }
  const missing = [...documented].filter((k) => !seen.has(k));
  process.stdout.write(
    `\nOpenAPI (account): ${documented.size - missing.length} of ${documented.size} documented answers (operation, status) checked in this run\n`,
  );
  if (missing.length > 0 && process.env.OPENAPI_COVERAGE === 'verbose') process.stdout.write(`not answered:\n  ${missing.join('\n  ')}\n`);
}
