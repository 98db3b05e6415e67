export * from './openapi-responses';
export * from './process';
export * from './otlp-receiver';
export * from './import-graph';
export * from './timing';
export * from './prism-client';
export * from './express-routing';
