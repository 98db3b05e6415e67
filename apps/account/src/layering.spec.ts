/**
 * The account service's layers: controller → service → repository. The SQL of an aggregate
 * lives in its repository (`*.repository.ts`); a service holds the rules and calls
 * repositories only, so no service file carries SQL text nor builds a query.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const SRC = __dirname;

/** Every `*.service.ts` under `src`, relative to `src`. */
function serviceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return serviceFiles(full);
    return entry.name.endsWith('.service.ts') ? [path.relative(SRC, full)] : [];
  });
}

/** SQL statements in a string or template, and the ways of running or building a query. */
const SQL = [/[`'"][^`'"]*\b(SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM|WITH(\s+RECURSIVE)?)\s/, /\.query\s*\(/, /\bcreateQueryBuilder\b/];

/** The lines of `text` that look like SQL. */
function sqlLines(text: string): string[] {
  return text.split('\n').filter((line) => SQL.some((pattern) => pattern.test(line)));
}

/** Services that still hold SQL (shrinks to empty as each aggregate gets its repository). */
const NOT_YET: readonly string[] = [];

describe('the layers of the account service', () => {
  const services = serviceFiles();

  it('finds the services', () => {
    expect(services).toContain(path.join('users', 'users.service.ts'));
    expect(services.length).toBeGreaterThan(6);
  });

  it('tells SQL from prose', () => {
    expect(sqlLines('const a = `SELECT "x" FROM "users"`;')).toHaveLength(1);
    expect(sqlLines(`await em.query('x');`)).toHaveLength(1);
    expect(sqlLines('const rows = await this.dataSource.createQueryBuilder(AuthEntity, "a")')).toHaveLength(1);
    expect(sqlLines('  `WITH RECURSIVE chain AS (`')).toHaveLength(1);
    expect(sqlLines('/** Updates the user: omitted fields keep their value. */')).toEqual([]);
    expect(sqlLines('const user = await this.users.findOne(appToken, userLoginId);')).toEqual([]);
  });

  it.each(services.filter((file) => !NOT_YET.includes(file)))('%s holds no SQL (its repository does)', (file) => {
    expect(sqlLines(readFileSync(path.join(SRC, file), 'utf8'))).toEqual([]);
  });

  it('lists as "not yet" only services that still hold SQL', () => {
    expect(NOT_YET.filter((file) => sqlLines(readFileSync(path.join(SRC, file), 'utf8')).length === 0)).toEqual([]);
  });
});

describe('the database folder', () => {
  /** The feature folders of `src` (every folder but the shared ones). */
  const SHARED = new Set(['database', 'common', 'config']);
  const features = readdirSync(SRC, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !SHARED.has(e.name))
    .map((e) => e.name);

  it('imports no feature, so that features and database/ do not import each other', () => {
    const offending = readdirSync(path.join(SRC, 'database'))
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => {
        const text = readFileSync(path.join(SRC, 'database', f), 'utf8');
        return features.filter((feature) => text.includes(`from '../${feature}/`)).map((feature) => `${f} → ${feature}`);
      });
    expect(features).toEqual(expect.arrayContaining(['users', 'auths']));
    expect(offending).toEqual([]);
  });
});
