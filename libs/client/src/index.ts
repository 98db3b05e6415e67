export * from './http';
export * from './account-client';
export * from './lbs-client';
