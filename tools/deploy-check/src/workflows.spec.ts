import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ROOT } from './facts';
import { commandsOf, matrixRows, readWorkspace, workflowFiles, workflowProblems } from './workflows';

const ws = readWorkspace();

describe.each(workflowFiles().map((f) => basename(f)))('.github/workflows/%s', (file) => {
  const text = readFileSync(join(ROOT, '.github', 'workflows', file), 'utf8');

  it('names only root scripts and Nx projects and targets that exist', () => {
    expect(workflowProblems(text, ws)).toEqual([]);
  });

  it('runs on Node 24 wherever it sets Node up', () => {
    const jobs = (parseYaml(text) as { jobs: Record<string, { steps?: { uses?: string; with?: Record<string, unknown> }[] }> }).jobs;
    const setups = Object.values(jobs).flatMap((job) => (job.steps ?? []).filter((s) => s.uses?.startsWith('actions/setup-node@')));
    for (const setup of setups) expect(String(setup.with?.['node-version'])).toBe('24');
  });
});

describe('.github/workflows/ci.yml', () => {
  const workflow = parseYaml(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
    jobs: Record<string, { strategy?: { matrix?: Record<string, unknown> }; steps: { run?: string }[] }>;
  };

  it('has an e2e job per app, each running the app’s own Nx e2e target', () => {
    const apps = [...ws.projects.entries()].filter(([, targets]) => targets.has('e2e')).map(([name]) => name);
    expect(apps).toEqual(expect.arrayContaining(['account', 'location']));
    expect(
      matrixRows(workflow.jobs.e2e!.strategy!.matrix)
        .map((row) => row.app)
        .sort(),
    ).toEqual(apps.sort());
    expect(workflow.jobs.e2e!.steps.map((s) => s.run ?? '').join('\n')).toContain('pnpm nx run ${{ matrix.app }}:e2e');
  });

  it('has the checks and the reliability suite as jobs of their own', () => {
    const runs = (job: string) => workflow.jobs[job]!.steps.flatMap((s) => commandsOf(s.run ?? '').map((w) => w.join(' ')));
    expect(runs('checks')).toEqual(
      expect.arrayContaining(['pnpm install --frozen-lockfile', 'pnpm lint', 'pnpm openapi --check', 'pnpm build']),
    );
    expect(runs('reliability')).toContain('pnpm test:reliability');
  });
});

describe('the drift check itself', () => {
  const workflow = (run: string) =>
    `on: push\njobs:\n  j:\n    runs-on: x\n    strategy:\n      matrix:\n        app: [account, nope]\n    steps:\n      - run: ${run}\n`;

  it('reports a missing script, project or target, with the matrix expanded', () => {
    expect(workflowProblems(workflow('pnpm nx run ${{ matrix.app }}:e2e'), ws)).toEqual(['j: pnpm nx run nope:e2e: no Nx project "nope"']);
    expect(workflowProblems(workflow('pnpm lint && pnpm no-such-script'), ws)).toHaveLength(2);
    expect(workflowProblems(workflow('pnpm nx affected -t unit e2e frobnicate --base=x'), ws)).toEqual([
      'j: pnpm nx affected -t unit e2e frobnicate --base=x: no project has a target "frobnicate"',
      'j: pnpm nx affected -t unit e2e frobnicate --base=x: no project has a target "frobnicate"',
    ]);
    expect(workflowProblems(workflow('pnpm nx run account:nope'), ws)).toHaveLength(2);
  });
});

describe('.ci/run', () => {
  it('is the machine’s entry point and calls the README’s test command last', () => {
    const lines = readFileSync(join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#') && !l.startsWith('echo'));
    expect(lines[lines.length - 1]).toBe('pnpm test');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toMatch(/pnpm test/);
    for (const words of lines.flatMap((l) => commandsOf(l)))
      expect(readWorkspace().scripts.has(words[1]!) || words[1] === 'install' || words[1] === 'exec').toBe(true);
  });
});
