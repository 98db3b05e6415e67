// The console in real Chromium against the compiled account and location services.
module.exports = {
  ...require('../../jest.preset.js'),
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 180_000,
};
