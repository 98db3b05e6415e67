import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** One regular expression of the source, where it is written. */
export interface FoundRegExp {
  source: string;
  flags: string;
  /** `path:line` from the repository root. */
  at: string;
}

/** A `new RegExp(…)` / `RegExp(…)` whose pattern is not a literal text (so it cannot be checked here). */
export interface DynamicRegExp {
  at: string;
  text: string;
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', '.nx', '.data']);

/** Source files under `dir` (recursively), skipping build output and dependencies. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries.sort()) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext)) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (/\.[mc]?ts$/.test(path)) return ts.ScriptKind.TS;
  return ts.ScriptKind.JS;
}

/** The text of a string literal or a template without substitutions; undefined for anything else. */
function literalText(node: ts.Expression | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}

/**
 * Every regular-expression literal and every `new RegExp(…)` / `RegExp(…)` of the files, parsed
 * with the TypeScript compiler (so comments, strings and templates are never taken for one).
 */
export function collectRegExps(root: string, files: readonly string[]): { found: FoundRegExp[]; dynamic: DynamicRegExp[] } {
  const found: FoundRegExp[] = [];
  const dynamic: DynamicRegExp[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
    const where = (node: ts.Node) => `${relative(root, file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(sf);
        const slash = literal.lastIndexOf('/');
        found.push({ source: literal.slice(1, slash), flags: literal.slice(slash + 1), at: where(node) });
      } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
        const [pattern, flags] = node.arguments ?? [];
        const source = literalText(pattern);
        const flagText = flags === undefined ? '' : literalText(flags);
        if (pattern !== undefined && ts.isRegularExpressionLiteral(pattern)) {
          // new RegExp(/x/, 'g'): the literal is collected on its own.
        } else if (source !== undefined && flagText !== undefined) {
          found.push({ source, flags: flagText, at: where(node) });
        } else {
          dynamic.push({ at: where(node), text: node.getText(sf).slice(0, 200) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { found, dynamic };
}
