import type { AuthEntity } from '../auths/auth.entity';
import type { AuthGroupEntity } from './auth-group.entity';

/** An item of `group_list`. */
export interface GroupListItem {
  group_id: string;
  group_name: string;
  group_desc: string | null;
  group_type: string | null;
  group_state: string | null;
  group_auths: string | null;
}

/** An item of `group_auth_detail`. */
export interface AuthSummary {
  auth_id: string;
  auth_name: string;
  auth_state: string | null;
  auth_type: string | null;
  auth_level: string | null;
  parent_auth_id: string | null;
  sub_auth_flag: string | null;
}

export interface GroupView extends GroupListItem {
  group_auth_detail: AuthSummary[];
}

export function toGroupListItem(g: AuthGroupEntity): GroupListItem {
  return {
    group_id: g.groupId,
    group_name: g.groupName,
    group_desc: g.groupDesc,
    group_type: g.groupType,
    group_state: g.groupState,
    group_auths: g.groupAuths,
  };
}

export function toAuthSummary(a: AuthEntity): AuthSummary {
  return {
    auth_id: a.authId,
    auth_name: a.authName,
    auth_state: a.authState,
    auth_type: a.authType,
    auth_level: a.authLevel,
    parent_auth_id: a.parentAuthId,
    sub_auth_flag: a.subAuthFlag,
  };
}
