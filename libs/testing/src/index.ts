export * from './openapi-responses';
