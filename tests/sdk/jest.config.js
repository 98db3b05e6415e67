// The SDK as its users get it: packed, installed in a temporary project, run against the services.
module.exports = {
  ...require('../../jest.preset.js'),
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 180_000,
};
