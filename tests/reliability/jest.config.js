// The reliability suite: real servers and child processes, one file at a time, long timeouts.
// Not part of `pnpm test` (this package has no `test` target): run it with `pnpm test:reliability`.
module.exports = {
  ...require('../../jest.preset.js'),
  testMatch: ['<rootDir>/test/**/*.reliability.ts'],
  testTimeout: 240_000,
  maxWorkers: 1,
  globalSetup: '<rootDir>/src/global-setup.ts',
  globalTeardown: '<rootDir>/src/global-teardown.ts',
  testSequencer: '<rootDir>/src/sequencer.js',
  verbose: true,
};
