import { CommonCodes, type ResultCode, resultCode as rc } from '@geoaccount/api';

/**
 * The account service's vocabulary: its interface numbers and its result codes (docs/contract.md
 * §6). A code is the interface number followed by a two-digit outcome; `interface number + 99`
 * is an unexpected failure of that interface (`interfaceSystemError` of libs/api).
 */
export const AccountInterface = {
  CREATE_AUTH: 100,
  MODIFY_AUTH: 101,
  LIST_AUTHS: 102,
  GET_AUTH: 103,
  CREATE_GROUP: 104,
  MODIFY_GROUP: 105,
  LIST_GROUPS: 106,
  GET_GROUP: 107,
  REGISTER_USER: 200,
  MODIFY_USER: 201,
  LIST_USERS: 202,
  GET_USER: 203,
  LOGIN: 204,
  USER_AUTHS: 205,
  USER_HAS_AUTH: 206,
  AUDIT_EVENTS: 207,
} as const;
export type AccountInterfaceNo = (typeof AccountInterface)[keyof typeof AccountInterface];

/** The path ids of the account routes, which a body or query may repeat (docs/contract.md §2). */
export const PATH_ID_FIELDS = ['auth_id', 'group_id', 'user_login_id'] as const;

export const AccountCodes = {
  ...CommonCodes,
  INVALID_USER_INFO: rc('90101', 400, 'invalid user information'),
  /** Stored personal data that cannot be decrypted (docs/contract.md §6): names no data. */
  PII_UNAVAILABLE: rc('90503', 503, 'personal data unavailable'),
  // auths
  AUTH_EXISTS: rc('10010', 409, 'auth id already exists'),
  AUTH_PARENT_MISSING: rc('10021', 400, 'parent auth does not exist'),
  AUTH_NOT_FOUND_ON_MODIFY: rc('10130', 404, 'auth id does not exist'),
  AUTH_PARENT_MISSING_ON_MODIFY: rc('10131', 400, 'parent auth does not exist'),
  AUTH_LIST_EMPTY: rc('10201', 200, 'query succeeded, no data'),
  AUTH_NOT_FOUND: rc('10301', 404, 'query succeeded, no data'),
  // auth groups
  GROUP_EXISTS: rc('10420', 409, 'group id already exists'),
  GROUP_AUTH_MISSING: rc('10422', 400, 'auth information does not exist'),
  GROUP_NOT_FOUND_ON_MODIFY: rc('10530', 404, 'group id does not exist'),
  GROUP_AUTH_MISSING_ON_MODIFY: rc('10532', 400, 'auth information does not exist'),
  GROUP_LIST_EMPTY: rc('10611', 200, 'query succeeded, no data'),
  GROUP_NOT_FOUND: rc('10701', 404, 'query succeeded, no data'),
  // users
  USER_EXISTS: rc('20020', 409, 'login id already exists'),
  USER_NOT_FOUND_ON_MODIFY: rc('20130', 404, 'login id does not exist'),
  USER_LIST_EMPTY: rc('20201', 200, 'query succeeded, no data'),
  /** A page past the last one while there are matches (docs/contract.md §13). */
  USER_PAGE_MISSING: rc('20201', 404, 'query succeeded, no data'),
  USER_NOT_FOUND: rc('20301', 404, 'query succeeded, no data'),
  LOGIN_FAILED: rc('20441', 401, 'login verification failed'),
  LOGIN_USER_TYPE: rc('20442', 401, 'user type incorrect'),
  LOGIN_LOCKED: rc('20443', 403, 'too many failed logins'),
  LOGIN_DIRECTORY_UNAVAILABLE: rc('20499', 503, 'directory unavailable'),
  // effective permissions (beyond the spec, built the spec's way)
  USER_AUTHS_USER_MISSING: rc('20501', 404, 'query succeeded, no data'),
  USER_AUTHS_EMPTY: rc('20511', 200, 'query succeeded, no data'),
  USER_HAS_AUTH_USER_MISSING: rc('20601', 404, 'query succeeded, no data'),
  // audit trail (docs/contract.md §10)
  AUDIT_EVENTS_EMPTY: rc('20701', 200, 'query succeeded, no data'),
} as const satisfies Record<string, ResultCode>;
