import { Injectable } from '@nestjs/common';
import { ApiException, type ResultCode } from '@geoaccount/api';
import { AccountCodes } from '../common/account-codes';
import { parseIdList } from '../common/id-list';
import { AccountConfig } from '../config/account.config';
import { AuthGroupsRepository } from '../auth-groups/auth-groups.repository';
import { type AuthRow, AuthsRepository } from '../auths/auths.repository';
import { UsersRepository } from '../users/users.repository';
import type { AuthSummary } from '../auth-groups/auth-group.view';
import { type AuthNode, type Grants, type HoldVia, effectiveAuths, holdsAuth } from './effective-auths';
import type { AppToken } from '../common/app-scope';

function summaryOf(row: AuthRow): AuthSummary {
  return {
    auth_id: row.authId,
    auth_name: row.authName,
    auth_state: row.authState,
    auth_type: row.authType,
    auth_level: row.authLevel,
    parent_auth_id: row.parentAuthId ?? '',
    sub_auth_flag: row.subAuthFlag,
  };
}

/** A user's effective permissions (interfaces 205 and 206; rules in `effective-auths.ts`). */
@Injectable()
export class PermissionsService {
  /** Ancestors followed when an auth is inherited: `AUTH_MAX_DEPTH - 1`. */
  private readonly maxAncestors: number;

  constructor(
    private readonly users: UsersRepository,
    private readonly groups: AuthGroupsRepository,
    private readonly auths: AuthsRepository,
    config: AccountConfig,
  ) {
    this.maxAncestors = config.AUTH_MAX_DEPTH - 1;
  }

  /** The user's effective auths in creation order; 404 20501 when the user is unknown. */
  async effective(appToken: AppToken, userLoginId: string): Promise<AuthSummary[]> {
    const grants = await this.grantsOf(appToken, userLoginId, AccountCodes.USER_AUTHS_USER_MISSING);
    const rows = await this.grantedAuths(appToken, grants);
    const effective = effectiveAuths(grants, new Map<string, AuthNode>(rows.map((r) => [r.authId, r])));
    return rows
      .filter((r) => effective.has(r.authId))
      .sort((a, b) => Number(BigInt(a.authSeqId) - BigInt(b.authSeqId)))
      .map(summaryOf);
  }

  /** Whether the user holds `authId`, and how; 404 20601 when the user is unknown. */
  async holds(appToken: AppToken, userLoginId: string, authId: string): Promise<{ has: boolean; via: HoldVia | null }> {
    const grants = await this.grantsOf(appToken, userLoginId, AccountCodes.USER_HAS_AUTH_USER_MISSING);
    const [granted, chain] = await Promise.all([
      this.grantedAuths(appToken, grants),
      this.auths.ancestry(appToken, authId, this.maxAncestors),
    ]);
    const nodes = new Map<string, AuthNode>([...granted, ...chain].map((r) => [r.authId, r]));
    return holdsAuth(authId, effectiveAuths(grants, nodes), nodes, this.maxAncestors);
  }

  /** The user's grants, lists in the order the user's fields name them. */
  private async grantsOf(appToken: AppToken, userLoginId: string, missing: ResultCode): Promise<Grants> {
    const user = await this.users.findGrants(appToken, userLoginId);
    if (!user) throw new ApiException(missing);
    const direct = parseIdList(user.userAuths ?? '', 'user_auths', true);
    const groupIds = parseIdList(user.userAuthGroups ?? '', 'user_auth_groups', true);
    const members = await this.groups.membersOf(appToken, groupIds);
    return {
      direct,
      groups: groupIds.map((groupId) => ({ groupId, authIds: members.filter((m) => m.groupId === groupId).map((m) => m.authId) })),
    };
  }

  private async grantedAuths(appToken: AppToken, grants: Grants): Promise<AuthRow[]> {
    return this.auths.findRows(appToken, [...new Set([...grants.direct, ...grants.groups.flatMap((g) => g.authIds)])]);
  }
}
