#!/usr/bin/env node
// Part of `pnpm lint`: every GitHub workflow in .github/workflows passes action-validator
// (the JSON schema of workflow syntax, with its expression and glob checks), one file at a time.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, '.github', 'workflows');
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f));
if (files.length === 0) {
  console.error('no workflow in .github/workflows');
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  const run = spawnSync(join(root, 'node_modules', '.bin', 'action-validator'), [join(dir, file)], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`.github/workflows/${file}: not a valid workflow`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
