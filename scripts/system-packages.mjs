#!/usr/bin/env node
// The system programs the test suites run as real servers (redis-server, slapd, chromium, …).
// `ensureSystemPackages` finds each on the PATH; what is missing it installs with Debian's
// apt-get when that is usable (root, or password-less sudo), one printed line per package;
// otherwise it stops at once with one message naming the packages and the command to run.
// kubectl is no Debian package: its own script installs it from the npm registry.
//
// From the shell: `node scripts/system-packages.mjs [group …]` (default: every group).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What each group of suites needs: a program and the Debian package that ships it. `dirs` are
 * looked in besides the PATH (daemons in /usr/sbin are off an ordinary user's PATH). What is
 * no program (a font) is found by `files` instead: present when one of them exists.
 */
export const SYSTEM_PACKAGES = {
  redis: [
    { binary: 'redis-server', pkg: 'redis-server' },
    { binary: 'redis-cli', pkg: 'redis-tools' },
  ],
  ldap: [
    { binary: 'slapd', pkg: 'slapd', dirs: ['/usr/sbin'] },
    { binary: 'ldapadd', pkg: 'ldap-utils' },
  ],
  tls: [{ binary: 'openssl', pkg: 'openssl' }],
  pgbouncer: [{ binary: 'pgbouncer', pkg: 'pgbouncer', dirs: ['/usr/sbin'] }],
  browser: [
    { binary: 'chromium', pkg: 'chromium' },
    // Chinese text in the console's pages (a CJK face, not empty boxes)
    {
      binary: 'NotoSansCJK-Regular.ttc',
      files: ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc'],
      pkg: 'fonts-noto-cjk',
    },
  ],
  kubernetes: [{ binary: 'kubectl', script: 'tools/deploy-check/install-kubectl.sh' }],
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The path of an executable `binary` on `env.PATH` (or in `dirs`), or `undefined`. */
export function findBinary(binary, env = process.env, dirs = []) {
  const places = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...dirs];
  for (const dir of places) {
    const file = join(dir, binary);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Whether `req` is met here: its program on the PATH (or in `dirs`), or one of its `files`. */
export function isPresent(req, env = process.env) {
  if (req.files) return req.files.some((file) => existsSync(file));
  return findBinary(req.binary, env, req.dirs) !== undefined;
}

/** The requirements of the named groups (all groups when none is named), without repeats. */
export function requirementsOf(groups = Object.keys(SYSTEM_PACKAGES)) {
  const seen = new Map();
  for (const group of groups) {
    const list = SYSTEM_PACKAGES[group];
    if (!list) throw new Error(`unknown group of system packages: ${group} (known: ${Object.keys(SYSTEM_PACKAGES).join(', ')})`);
    for (const req of list) seen.set(req.binary, req);
  }
  return [...seen.values()];
}

/** How apt-get can be run here: `[]` as root, `['sudo', '-n']` with password-less sudo, else `undefined`. */
function aptPrefix(env) {
  if (!findBinary('apt-get', env)) return undefined;
  if (process.getuid?.() === 0) return [];
  if (findBinary('sudo', env) && spawnSync('sudo', ['-n', 'true'], { env, stdio: 'ignore' }).status === 0) return ['sudo', '-n'];
  return undefined;
}

/**
 * Makes sure every program of `requirements` can be run; installs the missing packages with
 * apt-get where it is usable. Throws one error naming what is missing otherwise.
 * @param {{binary: string, pkg?: string, script?: string, dirs?: string[], files?: string[]}[]} requirements
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 * @returns {string[]} the packages installed
 */
export function ensureSystemPackages(requirements, { env = process.env, log = (line) => console.log(line) } = {}) {
  const absent = requirements.filter((req) => !isPresent(req, env));
  for (const req of absent.filter((r) => r.script)) {
    log(`installing ${req.binary} with ${req.script}`);
    const run = spawnSync('bash', [join(root, req.script)], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (run.status !== 0) throw new Error(`${req.script} failed (exit ${run.status ?? run.signal}): ${(run.stderr ?? '').trim().split('\n').slice(-3).join('\n')}`);
  }
  const missing = absent.filter((req) => req.pkg);
  if (missing.length === 0) return [];
  const pkgs = [...new Set(missing.map((req) => req.pkg))];
  const command = `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${pkgs.join(' ')}`;
  const prefix = aptPrefix(env);
  if (!prefix) {
    const programs = missing.map((req) => req.binary).join(', ');
    throw new Error(`the tests need ${programs}, which this machine lacks: install the packages ${pkgs.join(', ')} (as root: ${command})`);
  }

  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => {
    const [cmd, ...rest] = [...prefix, 'apt-get', ...args];
    const run = spawnSync(cmd, rest, { env: aptEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (run.status !== 0) {
      const tail = `${run.stderr ?? ''}${run.stdout ?? ''}`.trim().split('\n').slice(-5).join('\n');
      throw new Error(`\`${[cmd, ...rest].join(' ')}\` failed (exit ${run.status ?? run.signal}); install ${pkgs.join(', ')} by hand: ${command}\n${tail}`);
    }
  };
  apt(['update', '-qq']);
  for (const pkg of pkgs) {
    const programs = missing.filter((req) => req.pkg === pkg).map((req) => req.binary);
    log(`installing ${pkg} (for ${programs.join(', ')}) with apt-get`);
    apt(['install', '-y', '-qq', '--no-install-recommends', pkg]);
  }
  const still = missing.filter((req) => !isPresent(req, env));
  if (still.length > 0) {
    throw new Error(`apt-get installed ${pkgs.join(', ')} but ${still.map((req) => req.binary).join(', ')} is still not found on the PATH`);
  }
  return pkgs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureSystemPackages(requirementsOf(process.argv.length > 2 ? process.argv.slice(2) : undefined));
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
