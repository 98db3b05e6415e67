#!/usr/bin/env node
// `pnpm test`: every project's tests through Nx, one task at a time (the e2e suites share the
// machine's PostgreSQL and Redis, or embedded ones on a machine without them): the `unit`
// target of every project, the `medium` target of account (services on real PostgreSQL, and
// the recorded SQL), the `e2e` target of every app (`pnpm nx run account:e2e` runs one
// on its own), and `test` of the tools and package suites; then one closing line with the totals.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTestServers } from './test-servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, '.test-results');
rmSync(results, { recursive: true, force: true });

const stopServers = await ensureTestServers(process.env);
// In CI the e2e suites' clients go through a Prism validating proxy on each app's OpenAPI
// document (libs/testing/src/prism-proxy.ts); `E2E_VIA_PRISM=0` turns it off, `=1` on anywhere.
const env = { ...process.env };
if (env.CI && env.E2E_VIA_PRISM === undefined) env.E2E_VIA_PRISM = '1';
const run = spawnSync(
  process.execPath,
  [join(root, 'node_modules/nx/dist/bin/nx.js'), 'run-many', '-t', 'unit', 'medium', 'e2e', 'test', '--parallel=1', '--output-style=stream', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env },
);

await stopServers();

let passed = 0;
let failed = 0;
let skipped = 0;
const files = existsSync(results) ? readdirSync(results).filter((f) => f.endsWith('.json')) : [];
for (const file of files) {
  const r = JSON.parse(readFileSync(join(results, file), 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  console.log(`${file.replace(/\.json$/, '').padEnd(20)} ${r.numPassedTests} passed, ${r.numFailedTests} failed (${r.numTotalTestSuites} suites)`);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
