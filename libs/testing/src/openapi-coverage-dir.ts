import { basename, join } from 'node:path';

/** Where an app's test files leave the answers they covered: `.test-results/openapi-coverage/<app>`. */
export function coverageDir(appRoot: string): string {
  return join(appRoot, '../../.test-results/openapi-coverage', basename(appRoot));
}
