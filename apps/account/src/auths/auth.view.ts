import type { TimestampFormatter } from '../common/timestamp';
import type { AuthEntity } from './auth.entity';
import { type ViewOf, closedObject, countText, nullableText, text } from '../common/account-openapi';

/** The Auth fields of the spec, unset ones `null`. */
const AUTH_FIELDS = {
  auth_id: text,
  auth_name: text,
  auth_desc: nullableText,
  auth_state: nullableText,
  auth_type: nullableText,
  auth_level: nullableText,
  /** `""` for a root auth, whether its creator sent it empty or not at all (docs/contract.md §7). */
  parent_auth_id: text,
  sub_auth_flag: nullableText,
} as const;

/** An item of the auth list: the Auth fields plus app_token, auth_seq_id, create_time, update_time. */
const AUTH_LIST_ITEM_FIELDS = {
  app_token: text,
  auth_seq_id: countText,
  ...AUTH_FIELDS,
  create_time: nullableText,
  update_time: nullableText,
} as const;

export type AuthView = ViewOf<typeof AUTH_FIELDS>;
export type AuthListItem = ViewOf<typeof AUTH_LIST_ITEM_FIELDS>;

/** `AuthView` in the OpenAPI document. */
export const AUTH_SCHEMA = closedObject(AUTH_FIELDS);

/** `AuthListItem` in the OpenAPI document. */
export const AUTH_LIST_ITEM_SCHEMA = closedObject(AUTH_LIST_ITEM_FIELDS);

export function toAuthView(a: AuthEntity): AuthView {
  return {
    auth_id: a.authId,
    auth_name: a.authName,
    auth_desc: a.authDesc,
    auth_state: a.authState,
    auth_type: a.authType,
    auth_level: a.authLevel,
    parent_auth_id: a.parentAuthId ?? '',
    sub_auth_flag: a.subAuthFlag,
  };
}

export function toAuthListItem(a: AuthEntity, time: TimestampFormatter): AuthListItem {
  return {
    app_token: a.appToken,
    auth_seq_id: String(a.authSeqId),
    ...toAuthView(a),
    create_time: time.format(a.createTime),
    update_time: time.format(a.updateTime),
  };
}
