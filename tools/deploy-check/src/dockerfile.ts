import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser, Env, From } from 'dockerfile-ast';
import { ROOT } from './facts';

export interface Instruction {
  keyword: string;
  /** The arguments with line continuations joined. */
  args: string;
  /** ENV / ARG / LABEL properties. */
  properties: Record<string, string>;
}

export interface Stage {
  name?: string;
  /** The base image with build arguments' defaults substituted. */
  image: string;
  instructions: Instruction[];
}

export interface ParsedDockerfile {
  stages: Stage[];
  final: Stage;
}

/** Parses `docker/<file>` into stages (build arguments declared before the first FROM are substituted). */
export function parseDockerfile(file: string): ParsedDockerfile {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const dockerfile = DockerfileParser.parse(text);
  const lines = text.split('\n');
  const args: Record<string, string> = {};
  for (const arg of dockerfile.getInitialARGs()) {
    for (const p of arg.getProperties()) if (p.getValue() !== null) args[p.getName()] = p.getUnescapedValue() ?? '';
  }
  const substitute = (s: string) => s.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (whole, name: string) => args[name] ?? whole);
  const stages: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword().toUpperCase();
    // The instruction's own text (flags included), continuation lines joined, comments dropped.
    const range = instruction.getRange();
    const raw = lines
      .slice(range.start.line, range.end.line + 1)
      .filter((line) => !/^\s*#/.test(line))
      .join('\n')
      .replace(/\\\r?\n/g, ' ');
    const args = raw.replace(/\s+/g, ' ').trim().slice(keyword.length).trim();
    const properties: Record<string, string> = {};
    if (instruction instanceof Env) for (const p of instruction.getProperties()) properties[p.getName()] = p.getUnescapedValue() ?? '';
    if (keyword === 'FROM') {
      const from = instruction as From;
      stages.push({ name: from.getBuildStage() ?? undefined, image: substitute(from.getImage() ?? ''), instructions: [] });
      continue;
    }
    const stage = stages[stages.length - 1];
    if (stage) stage.instructions.push({ keyword, args, properties });
  }
  const final = stages[stages.length - 1];
  if (!final) throw new Error(`${file} has no FROM`);
  return { stages, final };
}

export function instructions(stage: Stage, keyword: string): Instruction[] {
  return stage.instructions.filter((i) => i.keyword === keyword);
}

/** The exec form (`["node", "x.js"]`) of CMD / ENTRYPOINT / HEALTHCHECK CMD arguments. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  const parsed = JSON.parse(json) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not an exec form: ${args}`);
  return parsed as string[];
}

/** The environment of the final image: every ENV of the stage, later ones winning. */
export function imageEnv(stage: Stage): Record<string, string> {
  return Object.assign({}, ...instructions(stage, 'ENV').map((i) => i.properties)) as Record<string, string>;
}
