import { rmSync } from 'node:fs';
import { coverageDir } from './openapi-coverage-dir';

/** Jest global setup of an app's suites: a run starts with no coverage of its OpenAPI document. */
export default function clearCoverage(_globalConfig: unknown, projectConfig: { rootDir: string }): void {
  rmSync(coverageDir(projectConfig.rootDir), { recursive: true, force: true });
}
