#!/usr/bin/env node
// `pnpm openapi`: builds both services and writes the OpenAPI 3.1 document each serves at
// /docs-json to docs/openapi/<service>.json, without a database, Redis or a port (the
// applications are created in Nest's preview mode). `--check` fails instead of writing when a
// committed document differs. The documents are linted by `pnpm lint` (Redocly, redocly.yaml).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const SERVICES = {
  account: { module: 'apps/account/dist/openapi.js', build: 'accountOpenApiDocument' },
  location: { module: 'apps/location/dist/openapi.js', build: 'locationOpenApiDocument' },
};

const build = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/nx/dist/bin/nx.js'),
    'run-many',
    '-t',
    'build',
    '-p',
    'account',
    'location',
    '--output-style=static',
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
if (build.status !== 0) {
  console.error('build failed; run `pnpm build` to see why');
  process.exit(1);
}

const require = createRequire(import.meta.url);
require(join(root, 'apps/account/node_modules/reflect-metadata'));
const out = join(root, 'docs/openapi');
mkdirSync(out, { recursive: true });
let stale = 0;
for (const [name, service] of Object.entries(SERVICES)) {
  const document = await require(join(root, service.module))[service.build]();
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const file = join(out, `${name}.json`);
  if (check) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      // missing: stale
    }
    if (committed !== text) {
      console.error(`docs/openapi/${name}.json differs from what the service serves: run \`pnpm openapi\``);
      stale++;
    }
  } else {
    writeFileSync(file, text);
    console.log(`docs/openapi/${name}.json`);
  }
}
process.exit(stale > 0 ? 1 : 0);
