import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { execForm, imageEnv, instructions, parseDockerfile } from './dockerfile';
import { ROOT, SERVICES, serviceFacts, servesGet } from './facts';


/** Whether a RUN line runs `pnpm … deploy` (words, not a pattern: see tools/regexp-check). */
function runsPnpmDeploy(args: string): boolean {
  const words = args.split(/\s+/);
  const pnpm = words.indexOf('pnpm');
  return pnpm >= 0 && words.indexOf('deploy', pnpm + 1) > 0;
}

describe.each(SERVICES)('docker/%s.Dockerfile', (name) => {
  const facts = serviceFacts(name);
  const { stages, final } = parseDockerfile(`docker/${name}.Dockerfile`);
  const build = stages.find((s) => s !== final && instructions(s, 'RUN').some((r) => runsPnpmDeploy(r.args)));
  const deploy = build && instructions(build, 'RUN').find((r) => runsPnpmDeploy(r.args));

  it('is multi-stage on a Node 24 base image, pinned by tag', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) {
      expect(stage.image).toMatch(/^node:24([.-][A-Za-z0-9.-]+)?$/);
      expect(stage.image).not.toMatch(/latest/);
    }
  });

  it('builds the app and its workspace libraries, then deploys only its production dependencies', () => {
    expect(build).toBeDefined();
    const runs = instructions(build!, 'RUN').map((r) => r.args);
    expect(runs.some((r) => /--frozen-lockfile/.test(r))).toBe(true);
    expect(runs.some((r) => r.includes(`@geoaccount/${name}...`) && /\brun build\b/.test(r))).toBe(true);
    expect(deploy!.args).toContain(`--filter @geoaccount/${name} deploy`);
    expect(deploy!.args).toMatch(/\s--prod\b/);
  });

  it('keeps the offline data the service loads from src/data', () => {
    if (!existsSync(join(ROOT, facts.appDir, 'src', 'data'))) return;
    expect(deploy!.args).toMatch(/\/out\/src\/data/);
  });

  it('runs as a non-root user with NODE_ENV=production', () => {
    const users = instructions(final, 'USER');
    expect(users.length).toBeGreaterThanOrEqual(1);
    const user = users[users.length - 1]!.args.split(':')[0]!;
    expect(user).toMatch(/^\d+$/); // numeric, so that runAsNonRoot can verify it
    expect(Number(user)).toBeGreaterThan(0);
    expect(imageEnv(final).NODE_ENV).toBe('production');
  });

  it('exposes the port the service listens on', () => {
    const exposed = instructions(final, 'EXPOSE').map((e) => Number(e.args.split('/')[0]));
    const port = Number(imageEnv(final).PORT ?? facts.defaultPort);
    expect(exposed).toEqual([port]);
    expect(port).toBe(facts.defaultPort);
  });

  it('checks health on a path the service serves', () => {
    const health = instructions(final, 'HEALTHCHECK');
    expect(health).toHaveLength(1);
    const command = execForm(health[0]!.args.slice(health[0]!.args.indexOf('CMD')));
    const path = /\/health\/[a-z]+/.exec(command.join(' '))?.[0];
    expect(path).toBe('/health/live');
    expect(servesGet(facts, path!)).toBe(true);
  });

  it("starts the file the app's build emits for src/main.ts", () => {
    expect(facts.mainOutput).toBe(posix.join('dist', 'main.js'));
    const workdir = instructions(final, 'WORKDIR').pop()!.args;
    const words = deploy!.args.split('&&')[0]!.split(/\s+/);
    const out = words.slice(words.indexOf('deploy') + 1).find((w) => w.startsWith('/'));
    const copy = instructions(final, 'COPY').find((c) => c.args.includes(`--from=${build!.name}`));
    expect(copy?.args).toMatch(new RegExp(`--from=${build!.name} ${out} (\\./?|${workdir}/?)$`));
    const cmd = execForm(instructions(final, 'CMD').pop()!.args);
    expect(cmd[0]).toBe('node');
    expect(posix.normalize(cmd[cmd.length - 1]!)).toBe(facts.mainOutput);
  });
});

describe('.dockerignore', () => {
  const lines = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

  it('leaves out installed and built files', () => {
    expect(lines).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git']));
  });

  it('keeps every workspace package and the lockfile in the build context', () => {
    const workspace = parseYaml(readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8')) as { packages: string[] };
    for (const pattern of workspace.packages) {
      const folder = pattern.replace(/\/\*$/, '');
      expect(lines.some((l) => l === folder || l === `${folder}/` || l.startsWith(`${folder}/`))).toBe(false);
    }
    expect(lines).not.toContain('pnpm-lock.yaml');
  });
});
