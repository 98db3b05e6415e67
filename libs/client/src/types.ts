/**
 * The answers of both services, field by field. Every field list below is also a value, so a
 * test can hold it against the OpenAPI documents the services serve (`answers.spec.ts`).
 */

/** Fields of every account answer. */
export interface AccountEnvelope {
  /** `90000` on success; otherwise the result code of docs/contract.md §6. */
  response_code: string;
  /** At most 32 characters. */
  response_message: string;
}

export const AUTH_FIELDS = ['auth_id', 'auth_name', 'auth_desc', 'auth_state', 'auth_type', 'auth_level', 'parent_auth_id', 'sub_auth_flag'] as const;
/** An auth (permission) as read by id. `parent_auth_id` is `""` for a root auth. */
export interface Auth {
  auth_id: string;
  auth_name: string;
  auth_desc: string | null;
  /** `1` usable, `0` disabled. */
  auth_state: string | null;
  auth_type: string | null;
  auth_level: string | null;
  parent_auth_id: string;
  /** `1`: the auth is passed down to its children. */
  sub_auth_flag: string | null;
}

export const AUTH_LIST_ITEM_FIELDS = ['app_token', 'auth_seq_id', ...AUTH_FIELDS, 'create_time', 'update_time'] as const;
/** An item of `GET /auths`: the auth plus its app, sequence number and times (`YYYY-MM-DD HH:MM:SS`). */
export interface AuthListItem extends Auth {
  app_token: string;
  auth_seq_id: string;
  create_time: string | null;
  update_time: string | null;
}

export const AUTH_SUMMARY_FIELDS = ['auth_id', 'auth_name', 'auth_state', 'auth_type', 'auth_level', 'parent_auth_id', 'sub_auth_flag'] as const;
/** An auth inside a group's detail or a user's effective auths. */
export type AuthSummary = Omit<Auth, 'auth_desc'>;

export const GROUP_LIST_ITEM_FIELDS = ['group_id', 'group_name', 'group_desc', 'group_type', 'group_state', 'group_auths'] as const;
/** A group as listed. `group_auths` is the comma-separated list exactly as sent. */
export interface GroupListItem {
  group_id: string;
  group_name: string;
  group_desc: string | null;
  group_type: string | null;
  group_state: string | null;
  group_auths: string | null;
}

export const GROUP_FIELDS = [...GROUP_LIST_ITEM_FIELDS, 'group_auth_detail'] as const;
/** A group as read by id: its member auths in detail. */
export interface Group extends GroupListItem {
  group_auth_detail: AuthSummary[];
}

export const USER_FIELDS = [
  'user_id',
  'user_login_id',
  'org_id',
  'user_pwd',
  'user_pwd_encrypt',
  'user_name',
  'user_short_name',
  'user_type',
  'is_domain_user',
  'cert_type',
  'cert_id',
  'cert_id_encrypt',
  'user_mobile',
  'user_mobile_encrypt',
  'user_auths',
  'user_auth_groups',
  'user_extends',
] as const;
/** A user as every answer shows it; the password fields are always `null`. */
export interface User {
  user_id: string;
  user_login_id: string;
  org_id: string | null;
  user_pwd: null;
  user_pwd_encrypt: null;
  user_name: string;
  user_short_name: string | null;
  user_type: string;
  /** `1`: logs in against the app's directory (LDAP / Active Directory). */
  is_domain_user: string;
  cert_type: string | null;
  cert_id: string | null;
  cert_id_encrypt: string | null;
  user_mobile: string | null;
  user_mobile_encrypt: string | null;
  user_auths: string | null;
  user_auth_groups: string | null;
  /** A JSON object, as text. */
  user_extends: string | null;
}

export const AUDIT_EVENT_FIELDS = [
  'event_id',
  'event_time',
  'app_token',
  'action',
  'resource_type',
  'resource_id',
  'operator',
  'request_id',
  'client_ip',
  'result_code',
  'changes',
] as const;
/** An audit event (docs/contract.md §10); every field is text, `changes` a JSON text (`""` for logins). */
export type AuditEvent = Record<(typeof AUDIT_EVENT_FIELDS)[number], string>;

/** Answers of each account operation (success bodies; a failure carries the envelope, and `count`/lists where docs/contract.md §6 says so). */
export interface AccountAnswers {
  createAuth: AccountEnvelope;
  modifyAuth: AccountEnvelope;
  listAuths: AccountEnvelope & { count: string; list: AuthListItem[] };
  getAuth: AccountEnvelope & Auth;
  createGroup: AccountEnvelope;
  modifyGroup: AccountEnvelope;
  listGroups: AccountEnvelope & { count: string; group_list: GroupListItem[] };
  getGroup: AccountEnvelope & Group;
  registerUser: AccountEnvelope & { user_id: string };
  modifyUser: AccountEnvelope;
  /** The page's users under both names (docs/contract.md §7); `count` is the number of matches in all pages. */
  listUsers: AccountEnvelope & { count: string; user_list: User[]; list: User[] };
  getUser: AccountEnvelope & User;
  login: AccountEnvelope & User;
  userAuths: AccountEnvelope & { count: string; list: AuthSummary[] };
  /** `via`: `direct`, `group:<group_id>` or `ancestor:<auth_id>`; `null` when not held. */
  userHasAuth: AccountEnvelope & { user_login_id: string; auth_id: string; has_auth: '0' | '1'; via: string | null };
  /** `next_event_id`: pass it as `after_event_id`; `""` when no event follows. */
  auditEvents: AccountEnvelope & { count: string; event_list: AuditEvent[]; next_event_id: string };
}

const ENVELOPE = ['response_code', 'response_message'] as const;
/** The top-level fields of each account answer, as values (the OpenAPI documents are held against them in a test). */
export const ACCOUNT_ANSWER_FIELDS = {
  createAuth: ENVELOPE,
  modifyAuth: ENVELOPE,
  listAuths: [...ENVELOPE, 'count', 'list'],
  getAuth: [...ENVELOPE, ...AUTH_FIELDS],
  createGroup: ENVELOPE,
  modifyGroup: ENVELOPE,
  listGroups: [...ENVELOPE, 'count', 'group_list'],
  getGroup: [...ENVELOPE, ...GROUP_FIELDS],
  registerUser: [...ENVELOPE, 'user_id'],
  modifyUser: ENVELOPE,
  listUsers: [...ENVELOPE, 'count', 'user_list', 'list'],
  getUser: [...ENVELOPE, ...USER_FIELDS],
  login: [...ENVELOPE, ...USER_FIELDS],
  userAuths: [...ENVELOPE, 'count', 'list'],
  userHasAuth: [...ENVELOPE, 'user_login_id', 'auth_id', 'has_auth', 'via'],
  auditEvents: [...ENVELOPE, 'count', 'event_list', 'next_event_id'],
} as const satisfies { [K in keyof AccountAnswers]: readonly (keyof AccountAnswers[K])[] };

/** Fields of every location answer; all values are text. */
export interface LbsEnvelope {
  /** `000` on success, `099` refused or not found, `100` bad token or signature (docs/contract.md §8). */
  code: string;
  resultDesc: string;
  /** `1` computed, `2` from the cache, `0` failure. */
  lbsStat: string;
}

export const LBS_ADDRESS_FIELDS = ['provinceName', 'provinceCode', 'areaName', 'areaCode', 'standardCode', 'country', 'address'] as const;
/** The administrative division of a point: province, prefecture-level city, county (GB/T 2260 codes). */
export interface LbsAddress {
  provinceName: string;
  provinceCode: string;
  areaName: string;
  areaCode: string;
  standardCode: string;
  country: string;
  address: string;
}

export interface LbsAnswers {
  lbsQuery: LbsEnvelope & LbsAddress;
  addressQuery: LbsEnvelope & { longitude: string; latitude: string; standardCode: string };
  baseStationQuery: LbsEnvelope & { longitude: string; latitude: string } & LbsAddress;
}

const LBS_ENVELOPE = ['code', 'resultDesc', 'lbsStat'] as const;
/** The fields of each location answer, as values (held against the OpenAPI document in a test). */
export const LBS_ANSWER_FIELDS = {
  lbsQuery: [...LBS_ENVELOPE, ...LBS_ADDRESS_FIELDS],
  addressQuery: [...LBS_ENVELOPE, 'longitude', 'latitude', 'standardCode'],
  baseStationQuery: [...LBS_ENVELOPE, 'longitude', 'latitude', ...LBS_ADDRESS_FIELDS],
} as const satisfies { [K in keyof LbsAnswers]: readonly (keyof LbsAnswers[K])[] };
