import { join } from 'node:path';
import { observeResponses } from '@geoaccount/client';
import { OpenApiResponseValidator } from '@geoaccount/testing';

/**
 * Every answer the suites' clients receive is checked against the committed OpenAPI document
 * (docs/openapi/account.json, equal to what the service serves): an undocumented status or
 * content type, or a body that does not match the operation's schema for its status, fails
 * the request and so the test.
 */
export const openApi = OpenApiResponseValidator.fromFile(join(__dirname, '../../../../docs/openapi/account.json'));

observeResponses((answer) => openApi.check(answer));
