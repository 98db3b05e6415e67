import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ROOT } from './facts';

/** What a `pnpm …` command in a workflow may name: the root scripts and each Nx project's targets. */
export interface Workspace {
  scripts: Set<string>;
  /** Nx project name (package.json `nx.name`, else `name`) → its targets (scripts and `nx.targets`). */
  projects: Map<string, Set<string>>;
}

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
  nx?: { name?: string; targets?: Record<string, unknown> };
}

export function readWorkspace(root = ROOT): Workspace {
  const manifest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  const globs = (parseYaml(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')) as { packages: string[] }).packages;
  const projects = new Map<string, Set<string>>();
  for (const folder of globs.map((g) => g.replace(/\/\*$/, ''))) {
    for (const entry of existsSync(join(root, folder)) ? readdirSync(join(root, folder)) : []) {
      const file = join(root, folder, entry, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = manifest(file);
      projects.set(pkg.nx?.name ?? pkg.name, new Set([...Object.keys(pkg.scripts ?? {}), ...Object.keys(pkg.nx?.targets ?? {})]));
    }
  }
  return { scripts: new Set(Object.keys(manifest(join(root, 'package.json')).scripts ?? {})), projects };
}

/** pnpm's own commands a workflow may use besides the scripts. */
const PNPM_COMMANDS = new Set(['install', 'exec', 'dlx', 'fetch', 'deploy']);
/** Nx commands that take targets (`-t a b`) or `project:target`; other Nx commands name no target. */
const NX_COMMANDS = new Set(['run', 'run-many', 'affected', 'show', 'graph', 'reset']);

interface Job {
  strategy?: { matrix?: Record<string, unknown> };
  steps?: { run?: string }[];
}

/** Every combination of a job's matrix (axes and `include` entries), as variable → value. */
export function matrixRows(matrix: Record<string, unknown> | undefined): Record<string, string>[] {
  if (!matrix) return [{}];
  let rows: Record<string, string>[] = [{}];
  for (const [axis, values] of Object.entries(matrix)) {
    if (axis === 'include' || axis === 'exclude' || !Array.isArray(values)) continue;
    rows = rows.flatMap((row) => values.map((v) => ({ ...row, [axis]: String(v) })));
  }
  const include = (matrix.include as Record<string, unknown>[] | undefined) ?? [];
  const included = include.map((entry) => Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, String(v)])));
  const axes = Object.keys(matrix).filter((k) => k !== 'include' && k !== 'exclude');
  return axes.length ? [...rows, ...included] : included.length ? included : [{}];
}

/** The `pnpm …` / `nx …` commands of a shell script, one word list each (continuations joined). */
export function commandsOf(script: string): string[][] {
  return script
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n|&&|\|\||;|\||\bthen\b|\bif\b|!/)
    .map((part) => part.trim().split(/\s+/).filter(Boolean))
    .map((words) => words.slice(words.findIndex((w) => w === 'pnpm' || w === 'nx')))
    .filter((words) => words.length > 0 && (words[0] === 'pnpm' || words[0] === 'nx'));
}

/** What is wrong with one command: a script, project or target the workspace does not have. */
export function problemsOf(words: string[], ws: Workspace): string[] {
  const args = words[0] === 'pnpm' ? words.slice(1) : words;
  if (args[0] !== 'nx') {
    const name = args[0] === 'run' ? args[1] : args[0];
    if (!name) return ['pnpm without a command'];
    return ws.scripts.has(name) || (args[0] !== 'run' && PNPM_COMMANDS.has(name)) ? [] : [`no root script "${name}"`];
  }
  const [command, ...rest] = args.slice(1);
  if (!command || !NX_COMMANDS.has(command)) return [`unknown nx command "${command ?? ''}"`];
  const problems: string[] = [];
  if (command === 'run') {
    const [project, target] = (rest[0] ?? '').split(':');
    const targets = ws.projects.get(project ?? '');
    if (!targets) problems.push(`no Nx project "${project}"`);
    else if (!target || !targets.has(target)) problems.push(`no target "${target}" in project ${project}`);
  }
  if (command === 'run-many' || command === 'affected') {
    const at = rest.findIndex((w) => w === '-t' || w === '--targets' || w === '--target');
    const named = at < 0 ? [] : rest.slice(at + 1, rest.findIndex((w, i) => i > at && w.startsWith('-')) >>> 0);
    if (named.length === 0) problems.push(`nx ${command} names no target`);
    for (const target of named.flatMap((t) => t.split(','))) {
      if (![...ws.projects.values()].some((targets) => targets.has(target))) problems.push(`no project has a target "${target}"`);
    }
  }
  return problems;
}

/** Problems of every `pnpm` / `nx` command of every job of a workflow, matrix expanded. */
export function workflowProblems(text: string, ws: Workspace): string[] {
  const workflow = parseYaml(text) as { jobs: Record<string, Job> };
  const problems: string[] = [];
  for (const [id, job] of Object.entries(workflow.jobs)) {
    for (const row of matrixRows(job.strategy?.matrix)) {
      for (const step of job.steps ?? []) {
        if (!step.run) continue;
        const script = step.run.replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (whole, name: string) => row[name] ?? whole);
        for (const words of commandsOf(script)) {
          for (const problem of problemsOf(words, ws)) problems.push(`${id}: ${words.join(' ')}: ${problem}`);
        }
      }
    }
  }
  return problems;
}

export function workflowFiles(root = ROOT): string[] {
  const dir = join(root, '.github', 'workflows');
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f));
}
