/**
 * The fields of both services' answers as values (the types are `./schema`'s, generated from
 * the OpenAPI documents), so that a test can hold the documents against them (`answers.spec.ts`)
 * and code can list them (tables, CSV headers).
 */
import type { AccountAnswers, LbsAnswers } from './schema';

export * from './schema';

export const AUTH_FIELDS = ['auth_id', 'auth_name', 'auth_desc', 'auth_state', 'auth_type', 'auth_level', 'parent_auth_id', 'sub_auth_flag'] as const;

export const AUTH_LIST_ITEM_FIELDS = ['app_token', 'auth_seq_id', ...AUTH_FIELDS, 'create_time', 'update_time'] as const;

export const AUTH_SUMMARY_FIELDS = ['auth_id', 'auth_name', 'auth_state', 'auth_type', 'auth_level', 'parent_auth_id', 'sub_auth_flag'] as const;

export const GROUP_LIST_ITEM_FIELDS = ['group_id', 'group_name', 'group_desc', 'group_type', 'group_state', 'group_auths'] as const;

export const GROUP_FIELDS = [...GROUP_LIST_ITEM_FIELDS, 'group_auth_detail'] as const;

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

export const LBS_ADDRESS_FIELDS = ['provinceName', 'provinceCode', 'areaName', 'areaCode', 'standardCode', 'country', 'address'] as const;

const LBS_ENVELOPE = ['code', 'resultDesc', 'lbsStat'] as const;
/** The fields of each location answer, as values (held against the OpenAPI document in a test). */
export const LBS_ANSWER_FIELDS = {
  lbsQuery: [...LBS_ENVELOPE, ...LBS_ADDRESS_FIELDS],
  addressQuery: [...LBS_ENVELOPE, 'longitude', 'latitude', 'standardCode'],
  baseStationQuery: [...LBS_ENVELOPE, 'longitude', 'latitude', ...LBS_ADDRESS_FIELDS],
} as const satisfies { [K in keyof LbsAnswers]: readonly (keyof LbsAnswers[K])[] };

/** Fields of every location answer (all text). */
export type LbsEnvelope = Pick<LbsAnswers['lbsQuery'], 'code' | 'resultDesc' | 'lbsStat'>;
/** Fields of every account answer. */
export type AccountEnvelope = Pick<AccountAnswers['createAuth'], 'response_message'> & { response_code: string };
