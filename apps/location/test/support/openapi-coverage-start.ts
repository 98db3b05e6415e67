import { rmSync } from 'node:fs';
import { OPENAPI_COVERAGE_DIR } from './openapi-files';

/** Jest global setup: a run starts with no coverage of the OpenAPI document. */
export default function clearCoverage(): void {
  rmSync(OPENAPI_COVERAGE_DIR, { recursive: true, force: true });
}
