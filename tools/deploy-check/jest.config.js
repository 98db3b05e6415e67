module.exports = {
  ...require('../../jest.preset.js'),
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  testTimeout: 120000,
  // kubernetes-models is ESM-only ("import" condition); jest loads it with require(esm).
  testEnvironmentOptions: { customExportConditions: ['node', 'require', 'import', 'default'] },
};
