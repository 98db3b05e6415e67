import type { AuthEntity } from '../auths/auth.entity';
import type { AuthGroupEntity } from './auth-group.entity';
import { type ViewOf, closedObject, listOf, nullableText, text } from '../common/account-openapi';

/** An item of `group_list`. */
const GROUP_FIELDS = {
  group_id: text,
  group_name: text,
  group_desc: nullableText,
  group_type: nullableText,
  group_state: nullableText,
  group_auths: nullableText,
} as const;

/** An item of `group_auth_detail` and of a user's effective auths. */
const AUTH_SUMMARY_FIELDS = {
  auth_id: text,
  auth_name: text,
  auth_state: nullableText,
  auth_type: nullableText,
  auth_level: nullableText,
  /** `""` for a root auth (docs/contract.md §7). */
  parent_auth_id: text,
  sub_auth_flag: nullableText,
} as const;

export type GroupListItem = ViewOf<typeof GROUP_FIELDS>;
export type AuthSummary = ViewOf<typeof AUTH_SUMMARY_FIELDS>;

const GROUP_VIEW_FIELDS = { ...GROUP_FIELDS, group_auth_detail: listOf<AuthSummary>('AuthSummary') } as const;
export type GroupView = ViewOf<typeof GROUP_VIEW_FIELDS>;

/** `GroupListItem` in the OpenAPI document. */
export const GROUP_LIST_ITEM_SCHEMA = closedObject(GROUP_FIELDS);

/** `AuthSummary` in the OpenAPI document. */
export const AUTH_SUMMARY_SCHEMA = closedObject(AUTH_SUMMARY_FIELDS);

/** `GroupView` in the OpenAPI document. */
export const GROUP_SCHEMA = closedObject(GROUP_VIEW_FIELDS);

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
    parent_auth_id: a.parentAuthId ?? '',
    sub_auth_flag: a.subAuthFlag,
  };
}
