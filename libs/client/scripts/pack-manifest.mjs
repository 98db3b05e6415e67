#!/usr/bin/env node
// The published manifest of @geoaccount/client. `prepack` (`node scripts/pack-manifest.mjs
// prepack`): builds the package (tsup), keeps the workspace's package.json aside and writes the
// manifest a consumer gets: no scripts, no Nx settings, no workspace or dev dependencies.
// `postpack` puts the workspace's manifest back. `--print` writes the clean manifest to stdout.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(dir, 'package.json');
const kept = join(dir, '.package.workspace.json');

/** The fields a consumer's package manager and tools read; everything else stays in the workspace. */
const PUBLISHED = [
  'name',
  'version',
  'description',
  'license',
  'author',
  'keywords',
  'repository',
  'homepage',
  'bugs',
  'type',
  'main',
  'module',
  'types',
  'exports',
  'bin',
  'files',
  'sideEffects',
  'engines',
  'peerDependencies',
  'peerDependenciesMeta',
  'publishConfig',
];

export function publishedManifest(pkg) {
  const out = {};
  for (const field of PUBLISHED) if (pkg[field] !== undefined) out[field] = pkg[field];
  return out;
}

const step = process.argv[2];
if (step === '--print') {
  process.stdout.write(`${JSON.stringify(publishedManifest(JSON.parse(readFileSync(manifest, 'utf8'))), null, 2)}\n`);
} else if (step === 'prepack') {
  const require = createRequire(manifest);
  execFileSync(process.execPath, [join(dirname(require.resolve('tsup/package.json')), 'dist/cli-default.js')], { cwd: dir, stdio: 'inherit' });
  if (!existsSync(kept)) copyFileSync(manifest, kept);
  writeFileSync(manifest, `${JSON.stringify(publishedManifest(JSON.parse(readFileSync(kept, 'utf8'))), null, 2)}\n`);
} else if (step === 'postpack') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error('usage: pack-manifest.mjs prepack | postpack | --print');
  process.exit(2);
}
