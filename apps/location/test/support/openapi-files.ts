import { join } from 'node:path';

/** The committed document (equal to what the service serves: see openapi.e2e-spec.ts). */
export const OPENAPI_DOCUMENT = join(__dirname, '../../../../docs/openapi/location.json');
/** Where each test file leaves the answers it covered, for the run's report. */
export const OPENAPI_COVERAGE_DIR = join(__dirname, '../../../../.test-results/openapi-coverage/location');
