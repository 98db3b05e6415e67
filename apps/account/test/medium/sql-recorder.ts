import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { MANAGER, type SqlCase, sqlMethodsOf } from '../../src/database/generate-sql';
import type { MediumDatabase } from './medium-database';

const SRC = path.resolve(__dirname, '../../src');
/** Transaction control sent by the recording itself, not by the method. */
const CONTROL = /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\b/i;

export interface RecordedFile {
  /** Relative to the repository root. */
  readonly file: string;
  readonly text: string;
}

export interface Recording {
  readonly files: RecordedFile[];
  /** Methods of a repository with neither `@GenerateSql` cases nor a reason to skip them. */
  readonly unrecorded: string[];
}

type RepositoryClass = (new (dataSource: DataSource) => object) & { name: string };

function repositoryFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) repositoryFiles(full, out);
    else if (entry.name.endsWith('.repository.ts')) out.push(full);
  }
  return out.sort();
}

/**
 * A DataSource whose every query runs on `em` (the recording transaction): `query`, `manager`,
 * `getRepository`; a `transaction` is written into the recording as a comment and runs on `em`.
 */
function dataSourceOn(real: DataSource, em: EntityManager, note: (line: string) => void): DataSource {
  return Object.create(real, {
    manager: { get: () => em },
    query: { value: (sql: string, params?: unknown[]) => em.query(sql, params) },
    getRepository: { value: (target: Parameters<EntityManager['getRepository']>[0]) => em.getRepository(target) },
    transaction: {
      value: async (first: unknown, second?: unknown) => {
        const run = (typeof first === 'function' ? first : second) as (em: EntityManager) => Promise<unknown>;
        note(`-- in a transaction${typeof first === 'string' ? ` (${first})` : ''}`);
        return run(em);
      },
    },
  }) as DataSource;
}

/** A statement as written in the file: its lines, trailing blanks and common indentation gone. */
function formatStatement(sql: string): string {
  const lines = sql.split('\n').map((l) => l.trimEnd());
  const rest = lines.slice(1).filter((l) => l.trim() !== '');
  const indent = rest.length === 0 ? 0 : Math.min(...rest.map((l) => l.length - l.trimStart().length));
  return [lines[0]!.trim(), ...lines.slice(1).map((l) => `  ${l.slice(indent)}`)].filter((l) => l.trim() !== '').join('\n') + ';';
}

async function recordCase(db: MediumDatabase, cls: RepositoryClass, method: string, c: SqlCase): Promise<string[]> {
  const runner = await db.transaction();
  const out: string[] = [];
  try {
    for (const seed of c.seed ?? []) await runner.query(seed);
    const repository = new cls(dataSourceOn(db.dataSource, runner.manager, (line) => out.push(line))) as Record<string, unknown>;
    const args = c.params.map((p) => (p === MANAGER ? runner.manager : p));
    db.statements.recording = [];
    const flush = () => {
      for (const { sql } of db.statements.recording ?? []) if (!CONTROL.test(sql.trim())) out.push(formatStatement(sql));
      db.statements.recording = [];
    };
    try {
      const result = await (repository[method] as (...a: unknown[]) => unknown).apply(repository, args);
      if (typeof result === 'function' && c.invoke) {
        flush();
        out.push('-- then, per call:');
        await (result as (...a: unknown[]) => Promise<unknown>)(...c.invoke);
      }
    } catch (err) {
      flush();
      out.push(`-- fails here: ${(err as { code?: string }).code ?? (err as Error).message}`);
    }
    flush();
  } finally {
    db.statements.recording = undefined;
    await runner.rollbackTransaction();
    await runner.release();
  }
  return out;
}

/**
 * Runs every declared case of every `*.repository.ts` class of the account service, each in a
 * transaction that is rolled back, and renders one `.sql` file per repository file.
 */
export async function recordSql(db: MediumDatabase): Promise<Recording> {
  const files: RecordedFile[] = [];
  const unrecorded: string[] = [];
  for (const source of repositoryFiles(SRC)) {
    // Found at run time by file name, so that a new repository needs no list entry here.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require(source) as Record<string, unknown>;
    const sections: string[] = [];
    for (const value of Object.values(module)) {
      if (typeof value !== 'function' || !/Repository$/.test(value.name)) continue;
      const cls = value as RepositoryClass;
      const methods = sqlMethodsOf(cls);
      const declared = new Set(methods.map((m) => m.method));
      for (const name of Object.getOwnPropertyNames(cls.prototype)) {
        if (name !== 'constructor' && !declared.has(name)) unrecorded.push(`${cls.name}.${name}`);
      }
      for (const { method, cases, skip } of methods) {
        if (skip !== undefined) {
          sections.push(`-- ${cls.name}.${method}: not recorded (${skip})`);
          continue;
        }
        for (const c of cases) {
          sections.push([`-- ${cls.name}.${method}: ${c.name}`, ...(await recordCase(db, cls, method, c))].join('\n'));
        }
      }
    }
    if (sections.length === 0) continue;
    const rel = path.relative(path.resolve(SRC, '../../..'), source);
    const file = path.join(path.dirname(rel), 'queries', path.basename(rel).replace(/\.ts$/, '.sql'));
    const header = `-- The statements of ${path.basename(rel)}, recorded by \`pnpm sql\` (do not edit): each case of a\n-- method's @GenerateSql, run against the migrated schema in a transaction that is rolled back.`;
    files.push({ file, text: `${header}\n\n${sections.join('\n\n')}\n` });
  }
  return { files, unrecorded };
}
