module.exports = {
  ...require('../../jest.preset.js'),
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 30000,
  // Every answer of the e2e suites' clients is checked against the OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/test/support/openapi-answers.ts'],
  globalSetup: '<rootDir>/../../libs/testing/src/openapi-coverage-start.ts',
  globalTeardown: '<rootDir>/../../libs/testing/src/openapi-coverage-report.ts',
};
