import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type AuditEventRow, auditEventCte, auditEventParams } from '../audit/audit-events.repository';
import { columnList, columnNames } from '../database/column-list';
import { GenerateSql, MANAGER, SAMPLE_AUDIT_ROW } from '../database/generate-sql';
import { HotReads } from '../database/hot-read';
import { UserEntity } from './user.entity';
import type { AppToken } from '../common/app-scope';

/** Fields a registration or modification may set, keyed by entity property. */
export type UserFields = Partial<Omit<UserEntity, 'appToken' | 'userLoginId' | 'userSeqId' | 'userId' | 'createTime' | 'updateTime'>>;

/** The filters of a users page. */
export interface UserFilter {
  orgId?: string;
  /** Only these login ids (none: all). */
  loginIds: string[];
}

/** A new user's row: the fields given, its keys and its id. */
export type NewUser = UserFields & Pick<UserEntity, 'appToken' | 'userLoginId' | 'userId'>;

/** A user's links: `undefined` leaves a kind as it is (modify), a list replaces it. */
export interface UserLinks {
  authIds?: string[];
  groupIds?: string[];
}

/** A page of users and the number of matches in all pages, read in one snapshot. */
export interface UserRows {
  total: number;
  rows: UserEntity[];
}

/** A user's grants as stored: the lists as sent. */
export interface UserGrantsRow {
  userAuths: string | null;
  userAuthGroups: string | null;
}

/** The login's read: the user (`null` when unknown) and the claim's outcome. */
export interface LoginRow {
  user: UserEntity | null;
  /** When the claim was made; `null` when there is none. */
  claimAt: string | null;
  /** Whether the login id was locked at the start of the statement. */
  locked: boolean;
}

/** The claim a login read makes in the same statement (see `LoginLockout`). */
export interface ClaimSql {
  /** CTEs ending in `"claim"` (one row `at`, or none), on `$1` app token and `$2` login id. */
  cte: string;
  /** A boolean expression: whether (`$1`, `$2`) is locked. */
  locked: string;
}

/**
 * The SQL of the user aggregate: `users`, its links (`user_auth_links`, `user_group_links`).
 * Reads return rows shaped as entities (or `null` / `[]`); what an absence means is the
 * service's to say. A registration or a modification is one statement: the user's row, its
 * links and the audit event together (a data-modifying `WITH`), so it is its own transaction
 * (or runs inside the caller's, on the manager given): the event commits with the change, and
 * a change that fails (a unique or foreign-key violation) writes neither.
 */
@Injectable()
export class UsersRepository {
  /** Every column under its entity property name. */
  private readonly columns: string;
  /** The single-user read of the hot paths (read, modify): one fixed SQL text. */
  private readonly selectOne: string;
  /** A page of the app's users (`$2 < app_ord <= $3`) and of an org's (`$3 < org_ord <= $4`): index ranges. */
  private readonly appPageSql: string;
  private readonly orgPageSql: string;
  /** The column of each entity property. */
  private readonly names: ReadonlyMap<string, string>;

  private readonly reads: HotReads;

  constructor(private readonly dataSource: DataSource) {
    this.reads = new HotReads(dataSource);
    this.columns = columnList(dataSource.getMetadata(UserEntity));
    this.names = columnNames(dataSource.getMetadata(UserEntity));
    this.selectOne = `SELECT ${this.columns} FROM "users" WHERE "app_token" = $1 AND "user_login_id" = $2`;
    this.appPageSql = `SELECT ${this.columns} FROM "users" WHERE "app_token" = $1 AND "app_ord" > $2 AND "app_ord" <= $3 ORDER BY "app_ord"`;
    this.orgPageSql = `SELECT ${this.columns} FROM "users" WHERE "app_token" = $1 AND "org_id" = $2 AND "org_ord" > $3 AND "org_ord" <= $4 ORDER BY "org_ord"`;
  }

  @GenerateSql({ name: 'by login id', params: ['app-7f3a9c2e41d08b56', 'alice'] })
  async findOne(appToken: AppToken, userLoginId: string): Promise<UserEntity | null> {
    const rows = await this.reads.rows<UserEntity>(this.selectOne, [appToken, userLoginId]);
    return rows[0] ?? null;
  }

  @GenerateSql({ name: 'by login id', params: ['app-7f3a9c2e41d08b56', 'alice'] })
  async exists(appToken: AppToken, userLoginId: string): Promise<boolean> {
    return this.dataSource.getRepository(UserEntity).existsBy({ appToken, userLoginId });
  }

  /** The user's grant lists, `null` when the user is unknown. */
  @GenerateSql({ name: 'by login id', params: ['app-7f3a9c2e41d08b56', 'alice'] })
  async findGrants(appToken: AppToken, userLoginId: string): Promise<UserGrantsRow | null> {
    const rows = await this.reads.rows<UserGrantsRow>(
      `SELECT "user_auths" AS "userAuths", "user_auth_groups" AS "userAuthGroups" FROM "users" WHERE "app_token" = $1 AND "user_login_id" = $2`,
      [appToken, userLoginId],
    );
    return rows[0] ?? null;
  }

  /**
   * The login's read: the claim of `claim` and the user in one round trip, as one fixed SQL
   * text built here once (PostgreSQL's CPU is the argon2 hashes' CPU on a shared host).
   * Parameters: the app token, the login id, then the claim's own.
   */
  @GenerateSql({
    name: 'with a claim',
    params: [{ cte: '"claim" AS (SELECT now() AS "at" WHERE $3::int > 0 AND $4::int > 0)', locked: 'false' }],
    invoke: ['app-7f3a9c2e41d08b56', 'alice', [5, 900]],
  })
  loginReader(claim: ClaimSql): (appToken: AppToken, userLoginId: string, claimParams: readonly unknown[]) => Promise<LoginRow> {
    const sql = `WITH ${claim.cte}
      SELECT ${columnList(this.dataSource.getMetadata(UserEntity), 'u')}, "claim"."at" AS "__claim_at", ${claim.locked} AS "__locked"
      FROM (VALUES (1)) AS "one" ("x")
      LEFT JOIN "users" "u" ON "u"."app_token" = $1 AND "u"."user_login_id" = $2
      LEFT JOIN "claim" ON true`;
    return async (appToken, userLoginId, claimParams) => {
      const [row] = (await this.dataSource.query(sql, [appToken, userLoginId, ...claimParams])) as (UserEntity & {
        __claim_at: string | null;
        __locked: boolean;
      })[];
      const { __claim_at: claimAt, __locked: locked, ...user } = row!;
      return { user: user.userLoginId === null ? null : user, claimAt, locked };
    };
  }

  /**
   * Inserts the user, its links and `event` in one statement (its own transaction, unless `em`
   * is a transaction's manager). Fails with the unique violation
   * of `users_pkey` (the login id exists) or `users_app_token_user_id_key` (the id is taken),
   * or the foreign-key violation of a link (an auth's is raised before a group's).
   */
  @GenerateSql(
    {
      name: 'required fields only, no links',
      params: [
        { appToken: 'app-7f3a9c2e41d08b56', userLoginId: 'bob', userId: 'U2', userName: 'Bob', userType: '1' },
        {},
        SAMPLE_AUDIT_ROW,
        MANAGER,
      ],
    },
    {
      name: 'every field, both links',
      params: [
        {
          appToken: 'app-7f3a9c2e41d08b56',
          userLoginId: 'bob',
          userId: 'U2',
          orgId: 'ORG1',
          userPwdHash: 'argon2id-hash',
          userName: 'Bob',
          userShortName: 'B',
          userType: '1',
          isDomainUser: '0',
          certType: '1',
          certId: 'sealed',
          certIdEncrypt: null,
          userMobile: 'sealed',
          userMobileEncrypt: null,
          userAuths: 'A1',
          userAuthGroups: 'G1',
          userExtends: '{}',
        },
        { authIds: ['A1'], groupIds: ['G1'] },
        SAMPLE_AUDIT_ROW,
        MANAGER,
      ],
      seed: [
        `INSERT INTO auths (app_token, auth_id, auth_name) VALUES ('app-7f3a9c2e41d08b56', 'A1', 'Orders')`,
        `INSERT INTO auth_groups (app_token, group_id, group_name) VALUES ('app-7f3a9c2e41d08b56', 'G1', 'Clerks')`,
      ],
    },
  )
  async register(user: NewUser, links: UserLinks, event: AuditEventRow, em: EntityManager = this.dataSource.manager): Promise<void> {
    const params: unknown[] = [user.appToken, user.userLoginId];
    const columns = ['"app_token"', '"user_login_id"'];
    const values = ['$1', '$2'];
    for (const [property, value] of Object.entries(user)) {
      if (property === 'appToken' || property === 'userLoginId' || value === undefined) continue;
      params.push(value);
      columns.push(`"${this.#column(property)}"`);
      values.push(`$${params.length}`);
    }
    const ctes = [
      `"changed" AS (INSERT INTO "users" (${columns.join(', ')}) VALUES (${values.join(', ')}) RETURNING 1)`,
      ...linkCtes(params, links, false),
      auditEventCte(params.length + 1, 'changed'),
    ];
    await em.query(`WITH ${ctes.join(',\n')} SELECT 1`, [...params, ...auditEventParams(event)]);
  }

  /**
   * Sets `fields` and the update time, replaces the links given and writes `event`, in one
   * statement; `false` (and nothing written) when the user does not exist. Fails with the
   * foreign-key violation of a link, like {@link register}.
   */
  @GenerateSql(
    {
      name: 'one field',
      params: ['app-7f3a9c2e41d08b56', 'alice', { userName: 'Alice B' }, {}, SAMPLE_AUDIT_ROW, MANAGER],
    },
    {
      name: 'org move, both links replaced',
      params: ['app-7f3a9c2e41d08b56', 'alice', { orgId: 'ORG2' }, { authIds: ['A1'], groupIds: ['G1'] }, SAMPLE_AUDIT_ROW, MANAGER],
    },
    {
      name: 'links cleared',
      params: ['app-7f3a9c2e41d08b56', 'alice', {}, { authIds: [], groupIds: [] }, SAMPLE_AUDIT_ROW, MANAGER],
    },
  )
  async modify(
    appToken: AppToken,
    userLoginId: string,
    fields: UserFields,
    links: UserLinks,
    event: AuditEventRow,
    em: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const params: unknown[] = [appToken, userLoginId];
    const set: string[] = [];
    for (const [property, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      params.push(value);
      set.push(`"${this.#column(property)}" = $${params.length}`);
    }
    set.push('"update_time" = now()');
    // A change of org renumbers the positions of the org's other users (migration
    // UserOrdinals1767226200000): the app's moves take turns, waiting before the user's row is
    // locked, so two moves never each hold a row the other shifts.
    const move = fields.orgId !== undefined;
    const ctes = [
      ...(move ? [`"org_move" AS (SELECT pg_advisory_xact_lock(hashtextextended('users-org:' || $1, 0)))`] : []),
      `"changed" AS (UPDATE "users" SET ${set.join(', ')}${move ? ' FROM "org_move"' : ''} WHERE "app_token" = $1 AND "user_login_id" = $2 RETURNING 1)`,
      ...linkCtes(params, links, true),
      auditEventCte(params.length + 1, 'changed'),
    ];
    const [row] = (await em.query(`WITH ${ctes.join(',\n')} SELECT count(*)::int AS "n" FROM "changed"`, [
      ...params,
      ...auditEventParams(event),
    ])) as { n: number }[];
    return row!.n > 0;
  }

  #column(property: string): string {
    const name = this.names.get(property);
    if (name === undefined) throw new Error(`users: no column for ${property}`);
    return name;
  }

  /** Stores `next` only if the hash is still `previous` (a concurrent password change wins). */
  @GenerateSql({ name: 'compare and set', params: ['app-7f3a9c2e41d08b56', 'alice', 'old-hash', 'new-hash'] })
  async replacePasswordHash(appToken: AppToken, userLoginId: string, previous: string, next: string): Promise<void> {
    await this.dataSource.getRepository(UserEntity).update({ appToken, userLoginId, userPwdHash: previous }, { userPwdHash: next });
  }

  /**
   * The users page: the `pageSize` users after the first `offset` in registration order, and
   * the number of matches in all pages, read in one snapshot. Without a login-id list, the
   * page is an index range of the users' dense positions (`app_ord` in the app, `org_ord` in
   * an org) and the count a counter row: the same work for any page of any size of app. With a
   * list (at most 1,000 ids, the service checks), its users are counted and skipped.
   */
  @GenerateSql(
    { name: 'the app, empty', params: ['app-7f3a9c2e41d08b56', { loginIds: [] }, 0, 20] },
    {
      name: 'the app',
      params: ['app-7f3a9c2e41d08b56', { loginIds: [] }, 0, 20],
      seed: [
        `INSERT INTO users (app_token, user_login_id, user_id, user_name, user_type, org_id) VALUES ('app-7f3a9c2e41d08b56', 'alice', 'U1', 'Alice', '1', 'ORG1')`,
      ],
    },
    {
      name: 'an org',
      params: ['app-7f3a9c2e41d08b56', { orgId: 'ORG1', loginIds: [] }, 0, 20],
      seed: [
        `INSERT INTO users (app_token, user_login_id, user_id, user_name, user_type, org_id) VALUES ('app-7f3a9c2e41d08b56', 'alice', 'U1', 'Alice', '1', 'ORG1')`,
      ],
    },
    {
      name: 'a login-id list',
      params: ['app-7f3a9c2e41d08b56', { loginIds: ['alice', 'bob'] }, 0, 20],
      seed: [
        `INSERT INTO users (app_token, user_login_id, user_id, user_name, user_type, org_id) VALUES ('app-7f3a9c2e41d08b56', 'alice', 'U1', 'Alice', '1', 'ORG1')`,
      ],
    },
    {
      name: 'a login-id list in an org',
      params: ['app-7f3a9c2e41d08b56', { orgId: 'ORG1', loginIds: ['alice'] }, 0, 20],
      seed: [
        `INSERT INTO users (app_token, user_login_id, user_id, user_name, user_type, org_id) VALUES ('app-7f3a9c2e41d08b56', 'alice', 'U1', 'Alice', '1', 'ORG1')`,
      ],
    },
  )
  async page(appToken: AppToken, filter: UserFilter, offset: number, pageSize: number): Promise<UserRows> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      if (filter.loginIds.length > 0) return this.#listedPage(manager, appToken, filter, offset, pageSize);
      const org = filter.orgId !== undefined;
      const [counted] = (await (org
        ? manager.query(`SELECT "total" FROM "user_org_counts" WHERE "app_token" = $1 AND "org_id" = $2`, [appToken, filter.orgId])
        : manager.query(`SELECT "total" FROM "user_counts" WHERE "app_token" = $1`, [appToken]))) as { total: string }[];
      const total = Number(counted?.total ?? 0);
      if (offset >= total) return { total, rows: [] };
      const rows = (await (org
        ? manager.query(this.orgPageSql, [appToken, filter.orgId, offset, offset + pageSize])
        : manager.query(this.appPageSql, [appToken, offset, offset + pageSize]))) as UserEntity[];
      return { total, rows };
    });
  }

  /** A page among the users of a login-id list (and the org, if given), counted and skipped. */
  async #listedPage(manager: EntityManager, appToken: AppToken, filter: UserFilter, offset: number, pageSize: number): Promise<UserRows> {
    const params: unknown[] = [appToken, filter.loginIds];
    let where = `"app_token" = $1 AND "user_login_id" = ANY($2)`;
    if (filter.orgId !== undefined) {
      params.push(filter.orgId);
      where += ` AND "org_id" = $3`;
    }
    const [counted] = (await manager.query(`SELECT count(*) AS "total" FROM "users" WHERE ${where}`, params)) as { total: string }[];
    const total = Number(counted?.total ?? 0);
    if (offset >= total) return { total, rows: [] };
    const rows = (await manager.query(
      `SELECT ${this.columns} FROM "users" WHERE ${where} ORDER BY "app_ord" LIMIT ${pageSize} OFFSET ${offset}`,
      params,
    )) as UserEntity[];
    return { total, rows };
  }
}

/** The link tables of a user, by kind. */
const LINKS = [
  { kind: 'authIds', table: 'user_auth_links', column: 'auth_id', cte: 'auth_links' },
  { kind: 'groupIds', table: 'user_group_links', column: 'group_id', cte: 'group_links' },
] as const;

/**
 * The CTEs writing a user's links in the statement whose CTE `"changed"` writes the user
 * (`$1` app token, `$2` login id), their lists appended to `params`. Nothing is written when
 * the user's row was not. `replace`: the links of a kind given and not listed are deleted
 * first, those listed and kept stay. The group links wait for the auth links, so that an
 * unknown auth is the violation raised first.
 */
function linkCtes(params: unknown[], links: UserLinks, replace: boolean): string[] {
  const ctes: string[] = [];
  let after = '';
  for (const { kind, table, column, cte } of LINKS) {
    const ids = links[kind];
    if (ids === undefined || (!replace && ids.length === 0)) continue;
    params.push(ids);
    const list = `$${params.length}::varchar[]`;
    if (replace)
      ctes.push(`"${cte}_gone" AS (DELETE FROM "${table}" WHERE "app_token" = $1 AND "user_login_id" = $2
        AND "${column}" <> ALL(${list}) AND EXISTS (SELECT 1 FROM "changed"))`);
    if (ids.length === 0) continue;
    ctes.push(`"${cte}" AS (INSERT INTO "${table}" ("app_token", "user_login_id", "${column}")
      SELECT $1, $2, "id" FROM unnest(${list}) AS "id" WHERE EXISTS (SELECT 1 FROM "changed")${after}
      ${replace ? 'ON CONFLICT DO NOTHING' : ''} RETURNING 1)`);
    after = ` AND (SELECT count(*) FROM "${cte}") >= 0`;
  }
  return ctes;
}
