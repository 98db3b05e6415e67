import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountCodes, ApiException, type ResultCode } from '@geoaccount/api';
import { parseIdList } from '../common/id-list';
import { AccountConfig } from '../config/account.config';
import { type AuthNode, type Grants, type HoldVia, effectiveAuths, holdsAuth } from './effective-auths';

/** An auth as the permission answers list it (the items of `group_auth_detail`). */
export interface AuthSummary {
  auth_id: string;
  auth_name: string;
  auth_state: string | null;
  auth_type: string | null;
  auth_level: string | null;
  /** `""` for a root auth (CONTRACT §7). */
  parent_auth_id: string;
  sub_auth_flag: string | null;
}

/** An auth as read: a root's parent is NULL when its creator did not send it. */
interface AuthRow extends Omit<AuthSummary, 'parent_auth_id'> {
  auth_seq_id: string;
  parent_auth_id: string | null;
}

const AUTH_COLUMNS = `"auth_id", "auth_seq_id", "auth_name", "auth_state", "auth_type", "auth_level", "parent_auth_id", "sub_auth_flag"`;

function nodeOf(row: AuthRow): AuthNode {
  return { authId: row.auth_id, authState: row.auth_state, parentAuthId: row.parent_auth_id };
}

function summaryOf(row: AuthRow): AuthSummary {
  const { auth_seq_id: _seq, ...summary } = row;
  return { ...summary, parent_auth_id: row.parent_auth_id ?? '' };
}

/** A user's effective permissions (interfaces 205 and 206; rules in `effective-auths.ts`). */
@Injectable()
export class PermissionsService {
  /** Ancestors followed when an auth is inherited: `AUTH_MAX_DEPTH - 1`. */
  private readonly maxAncestors: number;

  constructor(
    private readonly dataSource: DataSource,
    config: AccountConfig,
  ) {
    this.maxAncestors = config.AUTH_MAX_DEPTH - 1;
  }

  /** The user's effective auths in creation order; 404 20501 when the user is unknown. */
  async effective(appToken: string, userLoginId: string): Promise<AuthSummary[]> {
    const grants = await this.grantsOf(appToken, userLoginId, AccountCodes.USER_AUTHS_USER_MISSING);
    const rows = await this.grantedAuths(appToken, grants);
    const effective = effectiveAuths(grants, new Map(rows.map((r) => [r.auth_id, nodeOf(r)])));
    return rows
      .filter((r) => effective.has(r.auth_id))
      .sort((a, b) => Number(BigInt(a.auth_seq_id) - BigInt(b.auth_seq_id)))
      .map(summaryOf);
  }

  /** Whether the user holds `authId`, and how; 404 20601 when the user is unknown. */
  async holds(appToken: string, userLoginId: string, authId: string): Promise<{ has: boolean; via: HoldVia | null }> {
    const grants = await this.grantsOf(appToken, userLoginId, AccountCodes.USER_HAS_AUTH_USER_MISSING);
    const [granted, chain] = await Promise.all([this.grantedAuths(appToken, grants), this.ancestry(appToken, authId)]);
    const nodes = new Map([...granted, ...chain].map((r) => [r.auth_id, nodeOf(r)]));
    return holdsAuth(authId, effectiveAuths(grants, nodes), nodes, this.maxAncestors);
  }

  /** The user's grants, lists in the order the user's fields name them. */
  private async grantsOf(appToken: string, userLoginId: string, missing: ResultCode): Promise<Grants> {
    const users = (await this.dataSource.query(
      `SELECT "user_auths", "user_auth_groups" FROM "users" WHERE "app_token" = $1 AND "user_login_id" = $2`,
      [appToken, userLoginId],
    )) as { user_auths: string | null; user_auth_groups: string | null }[];
    const user = users[0];
    if (!user) throw new ApiException(missing);
    const direct = parseIdList(user.user_auths ?? '', 'user_auths', true);
    const groupIds = parseIdList(user.user_auth_groups ?? '', 'user_auth_groups', true);
    if (groupIds.length === 0) return { direct, groups: [] };
    const members = (await this.dataSource.query(
      `SELECT "group_id", "auth_id" FROM "auth_group_auths" WHERE "app_token" = $1 AND "group_id" = ANY($2)`,
      [appToken, groupIds],
    )) as { group_id: string; auth_id: string }[];
    return {
      direct,
      groups: groupIds.map((groupId) => ({ groupId, authIds: members.filter((m) => m.group_id === groupId).map((m) => m.auth_id) })),
    };
  }

  private async grantedAuths(appToken: string, grants: Grants): Promise<AuthRow[]> {
    const ids = [...new Set([...grants.direct, ...grants.groups.flatMap((g) => g.authIds)])];
    if (ids.length === 0) return [];
    return (await this.dataSource.query(`SELECT ${AUTH_COLUMNS} FROM "auths" WHERE "app_token" = $1 AND "auth_id" = ANY($2)`, [
      appToken,
      ids,
    ])) as AuthRow[];
  }

  /** The auth and its parent chain, at most `maxAncestors` ancestors (bounded, so a cycle cannot loop). */
  private async ancestry(appToken: string, authId: string): Promise<AuthRow[]> {
    return (await this.dataSource.query(
      `WITH RECURSIVE "chain" AS (
         SELECT ${AUTH_COLUMNS}, 0 AS "depth" FROM "auths" WHERE "app_token" = $1 AND "auth_id" = $2
         UNION ALL
         SELECT ${AUTH_COLUMNS.replace(/"(\w+)"/g, 'p."$1"')}, c."depth" + 1 FROM "chain" c
           JOIN "auths" p ON p."app_token" = $1 AND p."auth_id" = c."parent_auth_id"
          WHERE c."depth" < $3
       )
       SELECT ${AUTH_COLUMNS} FROM "chain"`,
      [appToken, authId, this.maxAncestors],
    )) as AuthRow[];
  }
}
