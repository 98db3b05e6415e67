// `@geoaccount/client`: typed, signing clients of the account and location services, for Node ≥ 20
// and browsers (Web Crypto, fetch; no Node API). Request and answer types are generated from the
// services' OpenAPI documents (`./generated`, `pnpm client-types`).
export * from './errors';
export { ApiResponse, NO_DATA_CODES, observeResponses, retryAfterMs, send, type AnswerBody, type LooseAnswer, type CallOptions, type ClientResponse, type Envelope, type ObservedResponse, type TransportOptions } from './http';
export * from './types';
export * from './account-client';
export { LBS_BUSINESS_PARAMS, LBS_OPERATIONS, LbsClient, type BusinessParams, type LbsClientOptions, type LbsResponse, type LbsResult } from './lbs-client';
export * from './admin-types';
export * from './admin-client';
export { DEMO_APP, type AesMode } from '@geoaccount/signing/portable';
/** The paths of the services' OpenAPI documents, for openapi-fetch (see `@geoaccount/client/openapi-fetch`). */
export type { paths as AccountPaths } from './generated/account';
export type { paths as LocationPaths } from './generated/location';
