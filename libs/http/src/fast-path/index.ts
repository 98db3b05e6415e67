// The places where the services bypass Express or Nest, and why: see README.md next to this file.
export * from './json-answer';
export * from './json-list';
export * from './query';
export * from './param-rules';
export * from './text-param';
export * from './zone-clock';
export * from './router-methods';
export * from './header-block';
export * from './direct-routes';
export * from './route-steps';
