#!/usr/bin/env node
// `pnpm cli <service> <command> ...`: builds the client if it is missing or older than its
// sources (or those of the libs it signs with), then runs its CLI. A stale build would sign
// with rules the services no longer accept.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'libs/client/dist/cli.cjs');
/** Written after a build by this script: the sources it was built from are older. */
const stamp = join(root, 'libs/client/dist/.cli-built');
const LIBS = ['client', 'signing', 'api'];

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** True when a source of the client or of a lib it uses changed since the last build. */
function stale() {
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  return LIBS.some((lib) => newest(join(root, 'libs', lib, 'src')) > built);
}

if (!existsSync(cli) || stale()) {
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/nx/dist/bin/nx.js'), 'run', '@geoaccount/client:build', '--output-style=static'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stamp, '');
}
const run = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
