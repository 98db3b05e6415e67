#!/usr/bin/env node
// `pnpm sql`: records the statements of every repository method of the account service, for
// the cases its `@GenerateSql` declares, into `queries/*.sql` next to the repository
// (apps/account/src/database/generate-sql.ts). It runs the medium tier's recording spec with
// GENERATE_SQL=write against a real PostgreSQL (DATABASE_URL, or one found or started as for
// `pnpm test`); without `write`, that spec fails when the committed files differ.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const account = join(root, 'apps/account');
const run = spawnSync(
  process.execPath,
  [
    join(root, 'scripts/with-test-servers.mjs'),
    '--groups=',
    process.execPath,
    join(root, 'node_modules/jest/bin/jest.js'),
    '-c',
    'test/medium/jest.config.js',
    'test/medium/sql.medium-spec.ts',
  ],
  {
    cwd: account,
    stdio: 'inherit',
    env: { ...process.env, GENERATE_SQL: 'write', NODE_OPTIONS: '--experimental-vm-modules --no-warnings=ExperimentalWarning' },
  },
);
process.exit(run.status ?? 1);
