export * from './fast-path';
export * from './http-defaults';
export * from './rate-limit';
export * from './openapi-schema';
export * from './openapi';
export * from './security-headers';
export * from './shutdown';
