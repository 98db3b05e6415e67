import { observeResponses } from '@geoaccount/client';
import { OpenApiResponseValidator, checkPrismViolations, saveCoverage } from '@geoaccount/testing';
import { OPENAPI_COVERAGE_DIR, OPENAPI_DOCUMENT } from './openapi-files';

/**
 * Every answer the suites' clients receive is checked against the OpenAPI document: an
 * undocumented status or content type, or a body that does not match the operation's schema
 * for its status, fails the request and so the test. Through Prism (`E2E_VIA_PRISM=1`), so does
 * a violation Prism reports of the answer, or of a request the service served.
 */
export const openApi = OpenApiResponseValidator.fromFile(OPENAPI_DOCUMENT);

observeResponses((answer) => {
  openApi.check(answer);
  checkPrismViolations(answer, OPENAPI_COVERAGE_DIR);
});
afterAll(() => saveCoverage(openApi, OPENAPI_COVERAGE_DIR));
