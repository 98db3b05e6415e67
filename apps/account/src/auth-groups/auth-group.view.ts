import type { AuthEntity } from '../auths/auth.entity';
import type { AuthGroupEntity } from './auth-group.entity';
import type { JsonSchema } from '@geoaccount/http';
import { closedObject, nullableText, text } from '../common/account-openapi';

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
  parent_auth_id: string;
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
    parent_auth_id: a.parentAuthId ?? '',
    sub_auth_flag: a.subAuthFlag,
  };
}

const GROUP_FIELDS = {
  group_id: text,
  group_name: text,
  group_desc: nullableText,
  group_type: nullableText,
  group_state: nullableText,
  group_auths: nullableText,
} satisfies Record<keyof GroupListItem, JsonSchema>;

/** `GroupListItem` in the OpenAPI document. */
export const GROUP_LIST_ITEM_SCHEMA = closedObject(GROUP_FIELDS);

/** `AuthSummary` in the OpenAPI document. */
export const AUTH_SUMMARY_SCHEMA = closedObject({
  auth_id: text,
  auth_name: text,
  auth_state: nullableText,
  auth_type: nullableText,
  auth_level: nullableText,
  parent_auth_id: text,
  sub_auth_flag: nullableText,
} satisfies Record<keyof AuthSummary, JsonSchema>);

/** `GroupView` in the OpenAPI document. */
export const GROUP_SCHEMA = closedObject({
  ...GROUP_FIELDS,
  group_auth_detail: { type: 'array', items: { $ref: '#/components/schemas/AuthSummary' } },
} satisfies Record<keyof GroupView, JsonSchema>);
