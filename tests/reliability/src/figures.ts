import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FIGURES_FILE } from './paths';

/** One measured figure of a run: printed at once and listed again at the end of the run. */
export interface Figure {
  suite: string;
  name: string;
  value: number | string;
  unit?: string;
  /** The bound the test holds the figure to, in words (e.g. "< 2000"). */
  bound?: string;
}

/** Records and prints a figure. */
export function figure(suite: string, name: string, value: number | string, unit = '', bound = ''): void {
  const shown = typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(2)) : value;
  const f: Figure = { suite, name, value: shown, unit, bound };
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  appendFileSync(FIGURES_FILE, `${JSON.stringify(f)}\n`);
  process.stdout.write(`  [figure] ${suite} | ${name}: ${shown}${unit ? ` ${unit}` : ''}${bound ? ` (bound ${bound})` : ''}\n`);
}

export function readFigures(): Figure[] {
  if (!existsSync(FIGURES_FILE)) return [];
  return readFileSync(FIGURES_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Figure);
}

/** The figures as a Markdown table (what docs/reliability.md records). */
export function figuresTable(figures: Figure[]): string {
  const rows = figures.map((f) => `| ${f.suite} | ${f.name} | ${f.value}${f.unit ? ` ${f.unit}` : ''} | ${f.bound ?? ''} |`);
  return ['| suite | figure | value | bound |', '|---|---|---|---|', ...rows].join('\n');
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The p-th percentile (0..100, nearest rank). */
export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
