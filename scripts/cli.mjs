#!/usr/bin/env node
// `pnpm cli <service> <command> ...`: builds the client if needed, then runs its CLI.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'libs/client/dist/cli.cjs');
if (!existsSync(cli)) {
  const build = spawnSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'run', '@geoaccount/client:build', '--output-style=static'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const run = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
