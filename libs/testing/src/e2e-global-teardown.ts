import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { coverageDir } from './openapi-coverage-dir';
import reportCoverage from './openapi-coverage-report';

/** Jest global teardown of an app's e2e suites: the coverage report, and Prism's summary and stop. */
export default async function e2eGlobalTeardown(globalConfig: unknown, projectConfig: { rootDir: string }): Promise<void> {
  reportCoverage(globalConfig, projectConfig);
  const prism = globalThis.e2ePrismProxy;
  if (!prism) return;
  await prism.stop();
  const dir = `${coverageDir(projectConfig.rootDir)}-prism`;
  let answers = 0;
  const refused: string[] = [];
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      answers++;
      const entry = JSON.parse(line) as { ok: boolean; where?: string; violations?: string[] };
      if (!entry.ok) refused.push(`${entry.where}: ${entry.violations!.join('; ')}`);
    }
  }
  process.stdout.write(
    `Prism (${basename(projectConfig.rootDir)}): ${answers} answers through the proxy, 0 answer violations, ` +
      `${refused.length} request violations, each on a request the service refused too\n`,
  );
  if (process.env.OPENAPI_COVERAGE === 'verbose') process.stdout.write(`  ${refused.join('\n  ')}\n`);
}
