// `@geoaccount/client`: typed, signing clients of the account and location services, for Node ≥ 20
// and browsers (Web Crypto, fetch; no Node API).
export * from './errors';
export * from './http';
export * from './types';
export * from './account-client';
export * from './lbs-client';
export * from './admin-types';
export * from './admin-client';
export { DEMO_APP, type AesMode } from '@geoaccount/signing/portable';
