import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

/** The commit named in `tests/reliability/PREVIOUS_RELEASE` (a tag or a commit). */
export function previousRelease(): string {
  const named = readFileSync(join(REPO_ROOT, 'tests/reliability/PREVIOUS_RELEASE'), 'utf8').trim();
  const res = spawnSync('git', ['-C', REPO_ROOT, 'rev-parse', '--verify', `${named}^{commit}`], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`PREVIOUS_RELEASE names ${named}, which this clone does not have: ${res.stderr.trim()}`);
  return res.stdout.trim();
}

function step(what: string, cmd: string, args: string[], cwd: string, timeout: number): void {
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, NX_DAEMON: 'false', NODE_OPTIONS: '' } });
  if (res.status !== 0)
    throw new Error(
      `${what} failed (${res.status ?? res.signal}): ${`${res.stderr}${res.stdout}`.trim().split('\n').slice(-8).join('\n')}`,
    );
}

/**
 * The previous release's account service, built: its tree (`git archive`, no worktree of this
 * clone is touched) in a temp directory, installed from its lockfile (`pnpm install
 * --frozen-lockfile --prefer-offline`) and compiled (`nx run account:build`). Kept per commit
 * in the temp directory, so a second run reuses it. Returns the path of its `dist/main.js`.
 */
export function buildPreviousRelease(commit = previousRelease()): { commit: string; main: string; migrate: string; dir: string } {
  const dir = join(tmpdir(), `geoaccount-previous-${commit.slice(0, 12)}`);
  const main = join(dir, 'apps/account/dist/main.js');
  const migrate = join(dir, 'apps/account/dist/database/migrate.js');
  const done = join(dir, '.built');
  if (existsSync(done) && existsSync(main)) return { commit, main, migrate, dir };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync('sh', ['-c', `git -C "${REPO_ROOT}" archive ${commit} | tar -x -C "${dir}"`], { encoding: 'utf8' });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
  const pnpm = ['-y', 'pnpm@10'];
  step('pnpm install', 'npx', [...pnpm, 'install', '--frozen-lockfile', '--prefer-offline'], dir, 600_000);
  step('nx run account:build', 'npx', [...pnpm, 'exec', 'nx', 'run', 'account:build', '--output-style=static'], dir, 900_000);
  writeFileSync(done, `${commit}\n`);
  return { commit, main, migrate, dir };
}
