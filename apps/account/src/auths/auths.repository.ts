import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { columnList } from '../database/column-list';
import { GenerateSql, MANAGER } from '../database/generate-sql';
import { HotReads } from '../database/hot-read';
import { AuthEntity } from './auth.entity';
import type { AppToken } from '../common/app-scope';

/** The filters of an auths list; absent ones do not filter. */
export interface AuthFilter {
  authIds: string[];
  authState?: string;
  authType?: string;
  authLevel?: string;
  /** An id: its children; `''`: the roots (parent NULL or `''`). */
  parentAuthId?: string;
}

/** An auth as the permission rules read it. */
export type AuthRow = Pick<
  AuthEntity,
  'authId' | 'authSeqId' | 'authName' | 'authState' | 'authType' | 'authLevel' | 'parentAuthId' | 'subAuthFlag'
>;

/** The columns of an {@link AuthRow}. */
const ROW_COLUMNS: (keyof AuthRow)[] = [
  'authId',
  'authSeqId',
  'authName',
  'authState',
  'authType',
  'authLevel',
  'parentAuthId',
  'subAuthFlag',
];

/**
 * The SQL of the auth aggregate (`auths`), including the one recursive query of a parent
 * chain. Reads return rows shaped as entities (or `null` / `[]`); writes run on the manager of
 * the caller's transaction.
 */
@Injectable()
export class AuthsRepository {
  /** Every column under its entity property name. */
  private readonly columns: string;
  private readonly selectOne: string;
  private readonly selectRows: string;
  private readonly ancestrySql: string;

  private readonly reads: HotReads;

  constructor(private readonly dataSource: DataSource) {
    this.reads = new HotReads(dataSource);
    const metadata = dataSource.getMetadata(AuthEntity);
    this.columns = columnList(metadata);
    this.selectOne = `SELECT ${this.columns} FROM "auths" WHERE "app_token" = $1 AND "auth_id" = $2`;
    const rowMetadata = { columns: metadata.columns.filter((c) => (ROW_COLUMNS as string[]).includes(c.propertyName)) };
    const rowColumns = columnList(rowMetadata);
    this.selectRows = `SELECT ${rowColumns} FROM "auths" WHERE "app_token" = $1 AND "auth_id" = ANY($2)`;
    this.ancestrySql = `WITH RECURSIVE "chain" AS (
         SELECT "a".*, 0 AS "depth" FROM "auths" "a" WHERE "a"."app_token" = $1 AND "a"."auth_id" = $2
         UNION ALL
         SELECT "p".*, "c"."depth" + 1 FROM "chain" "c"
           JOIN "auths" "p" ON "p"."app_token" = $1 AND "p"."auth_id" = "c"."parent_auth_id"
          WHERE "c"."depth" < $3
       )
       SELECT ${columnList(rowMetadata, 'chain')} FROM "chain" ORDER BY "depth"`;
  }

  @GenerateSql({ name: 'by id', params: ['app-7f3a9c2e41d08b56', 'A1'] })
  async findOne(appToken: AppToken, authId: string): Promise<AuthEntity | null> {
    const rows = await this.reads.rows<AuthEntity>(this.selectOne, [appToken, authId]);
    return rows[0] ?? null;
  }

  /** The auth, locked for update until the transaction of `em` ends; `null` when it does not exist. */
  @GenerateSql({ name: 'by id, locked', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'A1'] })
  async findForUpdate(em: EntityManager, appToken: AppToken, authId: string): Promise<AuthEntity | null> {
    const rows = (await em.query(`${this.selectOne} FOR UPDATE`, [appToken, authId])) as AuthEntity[];
    return rows[0] ?? null;
  }

  /** The auths of `authIds` that exist, in no particular order. */
  @GenerateSql({ name: 'by ids', params: ['app-7f3a9c2e41d08b56', ['A1', 'A2']] })
  async findRows(appToken: AppToken, authIds: string[]): Promise<AuthRow[]> {
    if (authIds.length === 0) return [];
    return this.reads.rows<AuthRow>(this.selectRows, [appToken, authIds]);
  }

  /**
   * The auths matching every filter given, in creation order. A list may hold thousands of
   * rows: one SQL text, rows already shaped as entities (TypeORM's query building and
   * hydration cost more than the query itself).
   */
  @GenerateSql(
    { name: 'no filter', params: ['app-7f3a9c2e41d08b56', { authIds: [] }] },
    {
      name: 'every filter',
      params: ['app-7f3a9c2e41d08b56', { authIds: ['A1'], authState: '1', authType: 'menu', authLevel: '2', parentAuthId: 'A0' }],
    },
    { name: 'roots', params: ['app-7f3a9c2e41d08b56', { authIds: [], parentAuthId: '' }] },
  )
  async list(appToken: AppToken, filter: AuthFilter): Promise<AuthEntity[]> {
    const params: unknown[] = [appToken];
    const where = ['"app_token" = $1'];
    const add = (condition: (param: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (filter.authIds.length > 0) add((p) => `"auth_id" = ANY(${p})`, filter.authIds);
    if (filter.authState) add((p) => `"auth_state" = ${p}`, filter.authState);
    if (filter.authType) add((p) => `"auth_type" = ${p}`, filter.authType);
    if (filter.authLevel) add((p) => `"auth_level" = ${p}`, filter.authLevel);
    if (filter.parentAuthId) add((p) => `"parent_auth_id" = ${p}`, filter.parentAuthId);
    else if (filter.parentAuthId === '') where.push(`("parent_auth_id" IS NULL OR "parent_auth_id" = '')`);
    return (await this.dataSource.query(
      `SELECT ${this.columns} FROM "auths" WHERE ${where.join(' AND ')} ORDER BY "auth_seq_id" ASC`,
      params,
    )) as AuthEntity[];
  }

  /**
   * `authId` and its ancestors, nearest first, at most `maxAncestors` of them (bounded, so a
   * cycle cannot loop); empty when `authId` does not exist. On `em` when given (a transaction).
   */
  @GenerateSql({ name: 'up to 32 ancestors', params: ['app-7f3a9c2e41d08b56', 'A1', 32] })
  async ancestry(appToken: AppToken, authId: string, maxAncestors: number, em?: EntityManager): Promise<AuthRow[]> {
    return (await (em ?? this.dataSource.manager).query(this.ancestrySql, [appToken, authId, maxAncestors])) as AuthRow[];
  }

  /**
   * Levels of the subtree of `authId` (1: no children), counted down to one level past
   * `maxDepth` at most: enough to tell whether a re-parenting goes too deep.
   */
  @GenerateSql({ name: 'below an auth', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'A1', 32] })
  async height(em: EntityManager, appToken: AppToken, authId: string, maxDepth: number): Promise<number> {
    const rows = (await em.query(
      `WITH RECURSIVE sub (auth_id, level) AS (
         SELECT auth_id, 1 FROM auths WHERE app_token = $1 AND auth_id = $2
         UNION ALL
         SELECT a.auth_id, s.level + 1 FROM auths a JOIN sub s ON a.app_token = $1 AND a.parent_auth_id = s.auth_id
          WHERE s.level <= $3
       )
       SELECT max(level)::int AS height FROM sub`,
      [appToken, authId, maxDepth],
    )) as { height: number | null }[];
    return rows[0]?.height ?? 1;
  }

  /** Serialises the hierarchy changes of one app until the transaction of `em` ends. */
  @GenerateSql({ name: 'the app', params: [MANAGER, 'app-7f3a9c2e41d08b56'] })
  async lockHierarchy(em: EntityManager, appToken: AppToken): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtextextended('auths:' || $1, 0))`, [appToken]);
  }

  @GenerateSql({ name: 'required fields', params: [MANAGER, { appToken: 'app-7f3a9c2e41d08b56', authId: 'A2', authName: 'Refunds' }] })
  async insert(em: EntityManager, auth: Partial<AuthEntity>): Promise<void> {
    await em.insert(AuthEntity, auth);
  }

  /** Sets `changes` and the update time. */
  @GenerateSql({ name: 'two fields', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'A1', { authName: 'Orders 2', parentAuthId: '' }] })
  async update(em: EntityManager, appToken: AppToken, authId: string, changes: Partial<AuthEntity>): Promise<void> {
    await em.update(AuthEntity, { appToken, authId }, { ...changes, updateTime: () => 'now()' });
  }
}
