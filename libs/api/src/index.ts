export * from './result-codes';
export * from './api-exception';
export * from './envelope';
export * from './exception-filter';
export * from './validation';
export * from './form-body.middleware';
export * from './interface';
export * from './config';
