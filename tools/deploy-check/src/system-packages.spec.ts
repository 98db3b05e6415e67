import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './facts';

interface Requirement {
  binary: string;
  pkg?: string;
  script?: string;
  dirs?: string[];
  files?: string[];
}
interface SystemPackages {
  SYSTEM_PACKAGES: Record<string, Requirement[]>;
  findBinary(binary: string, env: NodeJS.ProcessEnv, dirs?: string[]): string | undefined;
  requirementsOf(groups?: string[]): Requirement[];
  ensureSystemPackages(requirements: Requirement[], options: { env: NodeJS.ProcessEnv; log: (line: string) => void }): string[];
}

const load = (): Promise<SystemPackages> => import(pathToFileURL(join(ROOT, 'scripts/system-packages.mjs')).href) as Promise<SystemPackages>;

/**
 * The test helper that installs the suites' system programs, run with those programs hidden
 * from the PATH: a PATH of empty folders, and an `apt-get` of the test's own that records what
 * it was asked and "installs" a program by writing it into a folder of that PATH.
 */
describe('scripts/system-packages.mjs', () => {
  let dir: string;
  let bin: string;
  let log: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'system-packages-'));
    bin = join(dir, 'bin');
    log = join(dir, 'apt.log');
    mkdirSync(bin);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function fakeAptGet(into: string): string {
    const aptDir = join(dir, 'apt');
    mkdirSync(aptDir);
    const script = [
      '#!/bin/sh',
      `echo "$DEBIAN_FRONTEND $*" >> ${log}`,
      'if [ "$1" = install ]; then',
      '  for last; do :; done',
      // the package's program: redis-server ships redis-server, redis-tools redis-cli
      '  case "$last" in redis-tools) prog=redis-cli ;; *) prog="$last" ;; esac',
      `  printf '#!/bin/sh\\nexit 0\\n' > ${into}/$prog 2>/dev/null && /bin/chmod +x ${into}/$prog`,
      'fi',
      'exit 0',
    ].join('\n');
    writeFileSync(join(aptDir, 'apt-get'), `${script}\n`);
    chmodSync(join(aptDir, 'apt-get'), 0o755);
    return aptDir;
  }

  it('declares what the suites run, each with its Debian package or install script', async () => {
    const { requirementsOf } = await load();
    const all = requirementsOf();
    expect(all.map((r) => r.binary)).toEqual(expect.arrayContaining(['redis-server', 'redis-cli', 'slapd', 'ldapadd', 'openssl', 'kubectl']));
    for (const req of all) {
      if (req.script) expect(existsSync(join(ROOT, req.script))).toBe(true);
      else expect(req.pkg).toMatch(/^[a-z0-9][a-z0-9.+-]+$/);
    }
    expect(() => requirementsOf(['no-such-group'])).toThrow('unknown group of system packages: no-such-group');
    // the browser tests draw Chinese text: a CJK font besides Chromium
    expect(requirementsOf(['browser']).map((r) => r.pkg)).toEqual(['chromium', 'fonts-noto-cjk']);
  });

  it('finds a font by its file, and asks for its package when the file is absent', async () => {
    const { ensureSystemPackages } = await load();
    const font = join(dir, 'NotoSansCJK-Regular.ttc');
    const req = { binary: 'NotoSansCJK-Regular.ttc', files: [font], pkg: 'fonts-noto-cjk' };
    expect(() => ensureSystemPackages([req], { env: { PATH: bin }, log: () => {} })).toThrow(
      'the tests need NotoSansCJK-Regular.ttc, which this machine lacks: install the packages fonts-noto-cjk',
    );
    writeFileSync(font, '');
    expect(ensureSystemPackages([req], { env: { PATH: bin }, log: () => {} })).toEqual([]);
  });

  it('finds programs only where they are', async () => {
    const { findBinary } = await load();
    expect(findBinary('redis-server', { PATH: bin })).toBeUndefined();
    writeFileSync(join(bin, 'redis-server'), '#!/bin/sh\n');
    expect(findBinary('redis-server', { PATH: bin })).toBeUndefined(); // not executable
    chmodSync(join(bin, 'redis-server'), 0o755);
    expect(findBinary('redis-server', { PATH: bin })).toBe(join(bin, 'redis-server'));
    expect(findBinary('slapd', { PATH: '' }, [bin])).toBeUndefined();
  });

  it('does nothing when every program is there', async () => {
    const { ensureSystemPackages } = await load();
    const lines: string[] = [];
    for (const name of ['redis-server', 'redis-cli']) {
      writeFileSync(join(bin, name), '#!/bin/sh\n');
      chmodSync(join(bin, name), 0o755);
    }
    const installed = ensureSystemPackages(
      [
        { binary: 'redis-server', pkg: 'redis-server' },
        { binary: 'redis-cli', pkg: 'redis-tools' },
      ],
      { env: { PATH: bin }, log: (l) => lines.push(l) },
    );
    expect(installed).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('stops at once, naming the packages and the command, when apt-get is not usable', async () => {
    const { ensureSystemPackages, requirementsOf } = await load();
    const lines: string[] = [];
    const run = (): string[] => ensureSystemPackages(requirementsOf(['redis']), { env: { PATH: bin }, log: (l) => lines.push(l) });
    expect(run).toThrow(
      'the tests need redis-server, redis-cli, which this machine lacks: install the packages redis-server, redis-tools ' +
        '(as root: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server redis-tools)',
    );
    expect(lines).toEqual([]);
  });

  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot('installs what is missing with apt-get, one line per package', async () => {
    const { ensureSystemPackages, requirementsOf } = await load();
    const aptDir = fakeAptGet(bin);
    const lines: string[] = [];
    const installed = ensureSystemPackages(requirementsOf(['redis']), { env: { PATH: `${bin}:${aptDir}` }, log: (l) => lines.push(l) });
    expect(installed).toEqual(['redis-server', 'redis-tools']);
    expect(lines).toEqual(['installing redis-server (for redis-server) with apt-get', 'installing redis-tools (for redis-cli) with apt-get']);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      'noninteractive update -qq',
      'noninteractive install -y -qq --no-install-recommends redis-server',
      'noninteractive install -y -qq --no-install-recommends redis-tools',
    ]);
  });

  asRoot('says so when the package did not bring the program', async () => {
    const { ensureSystemPackages } = await load();
    const aptDir = fakeAptGet(join(dir, 'apt-elsewhere-does-not-exist'));
    expect(() => ensureSystemPackages([{ binary: 'slapd', pkg: 'slapd' }], { env: { PATH: `${bin}:${aptDir}` }, log: () => {} })).toThrow(
      'apt-get installed slapd but slapd is still not found on the PATH',
    );
  });
});
