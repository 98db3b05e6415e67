/** The part of an entity's TypeORM metadata the repositories' SQL is built from. */
export interface ColumnsOf {
  readonly columns: readonly { readonly databaseName: string; readonly propertyName: string }[];
}

/**
 * Every column of an entity under its property name, `"col" AS "prop"` (of the table aliased
 * `alias`, if given): rows read by a fixed SQL text come back already shaped as entities.
 */
export function columnList(metadata: ColumnsOf, alias?: string): string {
  const table = alias === undefined ? '' : `"${alias}".`;
  return metadata.columns.map((c) => `${table}"${c.databaseName}" AS "${c.propertyName}"`).join(', ');
}

/** The database name of each property of an entity. */
export function columnNames(metadata: ColumnsOf): ReadonlyMap<string, string> {
  return new Map(metadata.columns.map((c) => [c.propertyName, c.databaseName]));
}
