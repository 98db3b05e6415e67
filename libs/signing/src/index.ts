export * from './hmac';
export * from './account-signature';
export * from './lbs-signature';
export * from './login-crypto';
export * from './credentials';
export * from './caller-app';
export * from './account-signature.guard';
export * from './lbs-signature.guard';
