import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { columnList } from '../database/column-list';
import { UserAuthLinkEntity, UserGroupLinkEntity } from './user-links.entity';
import { UserEntity } from './user.entity';

/** Fields a registration or modification may set, keyed by entity property. */
export type UserFields = Partial<Omit<UserEntity, 'appToken' | 'userLoginId' | 'userSeqId' | 'userId' | 'createTime' | 'updateTime'>>;

/** The filters of a users page. */
export interface UserFilter {
  orgId?: string;
  /** Only these login ids (none: all). */
  loginIds: string[];
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
 * service's to say. Writes run on the manager of the caller's transaction.
 */
@Injectable()
export class UsersRepository {
  /** Every column under its entity property name. */
  private readonly columns: string;
  /** The single-user read of the hot paths (read, login's rehash check): one fixed SQL text. */
  private readonly selectOne: string;

  constructor(private readonly dataSource: DataSource) {
    this.columns = columnList(dataSource.getMetadata(UserEntity));
    this.selectOne = `SELECT ${this.columns} FROM "users" WHERE "app_token" = $1 AND "user_login_id" = $2`;
  }

  async findOne(appToken: string, userLoginId: string): Promise<UserEntity | null> {
    const rows = (await this.dataSource.query(this.selectOne, [appToken, userLoginId])) as UserEntity[];
    return rows[0] ?? null;
  }

  async exists(appToken: string, userLoginId: string): Promise<boolean> {
    return this.dataSource.getRepository(UserEntity).existsBy({ appToken, userLoginId });
  }

  /** The user's grant lists, `null` when the user is unknown. */
  async findGrants(appToken: string, userLoginId: string): Promise<UserGrantsRow | null> {
    const rows = (await this.dataSource.query(
      `SELECT "user_auths" AS "userAuths", "user_auth_groups" AS "userAuthGroups" FROM "users" WHERE "app_token" = $1 AND "user_login_id" = $2`,
      [appToken, userLoginId],
    )) as UserGrantsRow[];
    return rows[0] ?? null;
  }

  /**
   * The login's read: the claim of `claim` and the user in one round trip, as one fixed SQL
   * text built here once (PostgreSQL's CPU is the argon2 hashes' CPU on a shared host).
   * Parameters: the app token, the login id, then the claim's own.
   */
  loginReader(claim: ClaimSql): (appToken: string, userLoginId: string, claimParams: readonly unknown[]) => Promise<LoginRow> {
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

  /** How many of `authIds` / `groupIds` are auths / groups of the app. */
  async countLinkTargets(appToken: string, authIds: string[], groupIds: string[]): Promise<{ auths: number; groups: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT (SELECT count(*) FROM "auths" WHERE "app_token" = $1 AND "auth_id" = ANY($2::varchar[]))::int AS "auths",
              (SELECT count(*) FROM "auth_groups" WHERE "app_token" = $1 AND "group_id" = ANY($3::varchar[]))::int AS "groups"`,
      [appToken, authIds, groupIds],
    )) as { auths: number; groups: number }[];
    return row!;
  }

  async insert(em: EntityManager, user: UserFields & Pick<UserEntity, 'appToken' | 'userLoginId' | 'userId'>): Promise<void> {
    await em.insert(UserEntity, user);
  }

  /** Sets `fields` and the update time; `false` when the user does not exist. */
  async update(em: EntityManager, appToken: string, userLoginId: string, fields: UserFields): Promise<boolean> {
    const result = await em.update(UserEntity, { appToken, userLoginId }, { ...fields, updateTime: () => 'now()' });
    return result.affected !== 0;
  }

  /** Replaces the user's auth links (when `authIds` is given) and group links (when `groupIds` is). */
  async replaceLinks(
    em: EntityManager,
    appToken: string,
    userLoginId: string,
    authIds: string[] | undefined,
    groupIds: string[] | undefined,
  ): Promise<void> {
    if (authIds !== undefined) await em.delete(UserAuthLinkEntity, { appToken, userLoginId });
    if (groupIds !== undefined) await em.delete(UserGroupLinkEntity, { appToken, userLoginId });
    await this.insertLinks(em, appToken, userLoginId, authIds ?? [], groupIds ?? []);
  }

  async insertLinks(em: EntityManager, appToken: string, userLoginId: string, authIds: string[], groupIds: string[]): Promise<void> {
    if (authIds.length > 0)
      await em.insert(
        UserAuthLinkEntity,
        authIds.map((authId) => ({ appToken, userLoginId, authId })),
      );
    if (groupIds.length > 0)
      await em.insert(
        UserGroupLinkEntity,
        groupIds.map((groupId) => ({ appToken, userLoginId, groupId })),
      );
  }

  /** Stores `next` only if the hash is still `previous` (a concurrent password change wins). */
  async replacePasswordHash(appToken: string, userLoginId: string, previous: string, next: string): Promise<void> {
    await this.dataSource.getRepository(UserEntity).update({ appToken, userLoginId, userPwdHash: previous }, { userPwdHash: next });
  }

  /**
   * The users page: the page of `pageSize` users at `offset` in creation order, and the number
   * of matches in all pages, read in one snapshot. Unfiltered, the count is the app's counter
   * row; the page is found on the (app_token, [org_id,] user_seq_id) index alone, from
   * whichever end is nearer, then only its rows are read.
   */
  async page(appToken: string, filter: UserFilter, offset: number, pageSize: number): Promise<UserRows> {
    const conditions = ['"app_token" = $1'];
    const params: unknown[] = [appToken];
    if (filter.orgId !== undefined) {
      params.push(filter.orgId);
      conditions.push(`"org_id" = $${params.length}`);
    }
    if (filter.loginIds.length > 0) {
      params.push(filter.loginIds);
      conditions.push(`"user_login_id" = ANY($${params.length})`);
    }
    const where = conditions.join(' AND ');
    const filtered = params.length > 1;

    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const [counted] = (await (filtered
        ? manager.query(`SELECT count(*) AS "total" FROM "users" WHERE ${where}`, params)
        : manager.query(`SELECT "total" FROM "user_counts" WHERE "app_token" = $1`, params))) as { total: string }[];
      const total = Number(counted?.total ?? 0);
      if (offset >= total) return { total, rows: [] };

      const size = Math.min(pageSize, total - offset);
      // A page in the second half is found scanning back from the newest user.
      const backwards = offset > total / 2;
      // The page's keys from the index alone, then only their rows: one statement, rows already
      // shaped as entities.
      const rows = (await manager.query(
        `SELECT ${this.columns} FROM "users" WHERE "app_token" = $1 AND "user_seq_id" IN (
           SELECT "user_seq_id" FROM "users" WHERE ${where}
            ORDER BY "user_seq_id" ${backwards ? 'DESC' : 'ASC'} LIMIT ${size} OFFSET ${backwards ? total - offset - size : offset})
          ORDER BY "user_seq_id" ASC`,
        params,
      )) as UserEntity[];
      return { total, rows };
    });
  }
}
