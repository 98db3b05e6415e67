// Shared jest settings: TypeScript through SWC (decorator metadata on), workspace libs from source.
const fs = require('node:fs');
const path = require('node:path');

// Each project's run writes its JSON summary here (see scripts/test.mjs).
fs.mkdirSync(path.join(__dirname, '.test-results'), { recursive: true });

const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@geoaccount/(api|signing|client)$': path.join(__dirname, 'libs/$1/src/index.ts'),
    '^@geoaccount/(observability|http|testing)$': path.join(__dirname, 'libs/$1/src/index.ts'),
    '^@geoaccount/signing/portable$': path.join(__dirname, 'libs/signing/src/portable/index.ts'),
    '^@geoaccount/client/(internal|openapi-fetch)$': path.join(__dirname, 'libs/client/src/$1.ts'),
    '^@geoaccount/observability/tracing$': path.join(__dirname, 'libs/observability/src/tracing.ts'),
  },
};
