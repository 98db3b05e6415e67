import type { DataSource, EntityManager } from 'typeorm';

/**
 * Every column that holds values encrypted under the `PII_KEYS` ring (`v1:<key id>:<base64>`,
 * docs/contract.md §11). The key-id check at start (and `pnpm rotate-pii`'s report) covers each
 * one listed here; each has a partial index on its key id (`piiKeyIndexSql`, created by a
 * migration), so that finding the key ids in use reads a few index pages, never the table.
 * A new table of encrypted values: add its column here and its index in a migration.
 */
export const PII_KEY_COLUMNS: readonly PiiKeyColumn[] = [
  { table: 'users', column: 'cert_id' },
  { table: 'users', column: 'user_mobile' },
  // The apps' credentials (docs/contract.md §14): the secret and the AES key of a row are sealed
  // under the same key, named by the row's `key_id` (indexed by the control plane's migration).
  { table: 'app_credentials', column: 'secret', keyIdColumn: 'key_id', index: 'app_credentials_key_id_idx' },
];

export interface PiiKeyColumn {
  table: string;
  column: string;
  /** A column of the row that holds the key id, when the values are not read for it. */
  keyIdColumn?: string;
  /** The index of the key ids, when not the one `piiKeyIndexSql` creates. */
  index?: string;
}

/** The name of the key-id index of a column. */
export function piiKeyIndexName({ table, column, index }: PiiKeyColumn): string {
  return index ?? `${table}_${column}_pii_key_idx`;
}

/** The key id of an encrypted value of the column, as SQL (the indexed expression). */
function keyIdSql(target: PiiKeyColumn): string {
  return target.keyIdColumn ? `"${target.keyIdColumn}"` : `split_part("${target.column}", ':', 2)`;
}

/** Encrypted values only (plain ones, not yet converted, have no key id). */
function encryptedSql(target: PiiKeyColumn): string {
  return target.keyIdColumn ? 'true' : `"${target.column}" LIKE 'v1:%'`;
}

/** The partial index on the key id of a column's encrypted values (for a migration). */
export function piiKeyIndexSql(target: PiiKeyColumn): string {
  return `CREATE INDEX IF NOT EXISTS "${piiKeyIndexName(target)}" ON "${target.table}" ((${keyIdSql(target)})) WHERE ${encryptedSql(target)}`;
}

/**
 * The key ids of the values stored in one column. A loose index scan (each step the next key
 * id after the last, through the partial index): as many index probes as there are key ids,
 * whatever the number of rows.
 */
export async function keyIdsOf(db: DataSource | EntityManager, target: PiiKeyColumn): Promise<string[]> {
  const id = keyIdSql(target);
  const where = encryptedSql(target);
  const rows = (await db.query(
    `WITH RECURSIVE k(id) AS (
       (SELECT ${id} FROM "${target.table}" WHERE ${where} ORDER BY 1 LIMIT 1)
       UNION ALL
       SELECT (SELECT ${id} FROM "${target.table}" WHERE ${where} AND ${id} > k.id ORDER BY 1 LIMIT 1) FROM k WHERE k.id IS NOT NULL
     )
     SELECT id FROM k WHERE id IS NOT NULL`,
  )) as { id: string }[];
  return rows.map((r) => r.id);
}

/** The key ids of every registered column's values, each with the columns (`table.column`) that use it. */
export async function keyIdsInUse(db: DataSource | EntityManager): Promise<Map<string, string[]>> {
  const used = new Map<string, string[]>();
  for (const target of PII_KEY_COLUMNS) {
    for (const id of await keyIdsOf(db, target)) used.set(id, [...(used.get(id) ?? []), `${target.table}.${target.column}`]);
  }
  return used;
}
