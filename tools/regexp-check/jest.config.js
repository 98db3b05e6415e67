module.exports = {
  ...require('../../jest.preset.js'),
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  testTimeout: 600000,
};
