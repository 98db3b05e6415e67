// The medium tier of the account service: services on their real repositories against a real,
// migrated PostgreSQL (a database per file, cloned from a template migrated once), no HTTP.
const path = require('node:path');

module.exports = {
  ...require('../../../../jest.preset.js'),
  rootDir: path.join(__dirname, '../..'),
  testMatch: ['<rootDir>/test/medium/**/*.medium-spec.ts'],
  testTimeout: 30000,
  globalSetup: '<rootDir>/test/medium/global-setup.ts',
  globalTeardown: '<rootDir>/test/medium/global-teardown.ts',
};
