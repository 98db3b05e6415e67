import { observeResponses } from '@geoaccount/client';
import { OpenApiResponseValidator, saveCoverage } from '@geoaccount/testing';
import { OPENAPI_COVERAGE_DIR, OPENAPI_DOCUMENT } from './openapi-files';

/**
 * Every answer the suites' clients receive is checked against the OpenAPI document: an
 * undocumented status or content type, or a body that does not match the operation's schema
 * for its status, fails the request and so the test.
 */
export const openApi = OpenApiResponseValidator.fromFile(OPENAPI_DOCUMENT);

observeResponses((answer) => openApi.check(answer));
afterAll(() => saveCoverage(openApi, OPENAPI_COVERAGE_DIR));
