module.exports = {
  ...require('../../jest.preset.js'),
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 30000,
  // Every answer of the e2e suites' clients is checked against the OpenAPI document; with
  // E2E_VIA_PRISM=1 the harness clients also go through a Prism validating proxy.
  setupFilesAfterEnv: ['<rootDir>/test/support/openapi-answers.ts'],
  globalSetup: '<rootDir>/../../libs/testing/src/e2e-global-setup.ts',
  globalTeardown: '<rootDir>/../../libs/testing/src/e2e-global-teardown.ts',
};
