/**
 * Recorded SQL: a repository method marked `@GenerateSql(...)` declares the argument cases its
 * statements are recorded for (enough to show each optional part). `pnpm sql` runs every case
 * against a migrated PostgreSQL database inside a transaction that is rolled back and writes the
 * statements to `queries/<file>.sql` next to the repository; the medium test tier fails when
 * the statements differ from the committed files. A `*.repository.ts` class is found by its
 * file name; each of its public methods carries `@GenerateSql` (or `@GenerateSql.skip(reason)`),
 * and its constructor takes the `DataSource` only.
 */

/** An argument replaced, when a case runs, by the entity manager of the recording transaction. */
export const MANAGER = Symbol('the recording transaction manager');

/**
 * The audit event of the recorded cases that write one (a change and its audit row in one
 * transaction): a user created by app `app-7f3a9c2e41d08b56`.
 */
export const SAMPLE_AUDIT_ROW = Object.freeze({
  appToken: 'app-7f3a9c2e41d08b56',
  action: 'create',
  resourceType: 'user',
  resourceId: 'alice',
  operator: '',
  requestId: 'r1',
  clientIp: '127.0.0.1',
  resultCode: '90000',
  changes: '{}',
});

export interface SqlCase {
  /** What the case shows, e.g. "no filter", "every filter". */
  readonly name: string;
  /** The method's arguments; `MANAGER` stands for an `EntityManager`. */
  readonly params: readonly unknown[];
  /** Statements run first in the recording transaction, not recorded (rows a later statement needs). */
  readonly seed?: readonly string[];
  /** When the method returns a function (a prepared reader), the arguments it is called with. */
  readonly invoke?: readonly unknown[];
}

export interface SqlMethod {
  readonly method: string;
  readonly cases: readonly SqlCase[];
  /** Why the method is not recorded (it issues no SQL of its own, …). */
  readonly skip?: string;
}

const REGISTRY = new WeakMap<object, SqlMethod[]>();

function register(target: object, entry: SqlMethod): void {
  const list = REGISTRY.get(target.constructor) ?? [];
  list.push(entry);
  REGISTRY.set(target.constructor, list);
}

/** Records the method's statements for each case (at least one). */
export function GenerateSql(...cases: [SqlCase, ...SqlCase[]]): MethodDecorator {
  return (target, key) => register(target, { method: String(key), cases });
}

/** Marks a method as deliberately not recorded, saying why. */
GenerateSql.skip = (reason: string): MethodDecorator => {
  return (target, key) => register(target, { method: String(key), cases: [], skip: reason });
};

/** The recorded methods of a repository class, in declaration order. */
export function sqlMethodsOf(cls: abstract new (...args: never[]) => unknown): readonly SqlMethod[] {
  return REGISTRY.get(cls) ?? [];
}
