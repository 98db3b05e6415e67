/**
 * The result codes of the admin API (docs/contract.md §14) as values. The types of its answers
 * are `./schema`'s, generated from the account service's OpenAPI document; this table is checked
 * against them: a code no admin operation answers does not compile here, and one it answers
 * that is missing here fails the type test (`types.typetest.ts`).
 */
import type { AdminResultCode } from './schema';

export const ADMIN_CODES = {
  SUCCESS: '90000',
  INVALID_FIELD: '90100',
  UNAUTHORIZED: '90401',
  FORBIDDEN: '90403',
  BODY_TOO_LARGE: '90413',
  UNSUPPORTED_MEDIA_TYPE: '90415',
  RATE_LIMITED: '90429',
  SYSTEM_ERROR: '90099',
  DIRECTORY_UNAVAILABLE: '20499',
  AUDIT_EVENTS_EMPTY: '20701',
  NO_SUCH_APP: '30101',
  TWO_ACTIVE_CREDENTIALS: '30120',
  CONFIG_APP: '30130',
  NO_SUCH_CREDENTIAL: '30201',
  NO_SUCH_OPERATOR: '30301',
  OPERATOR_EXISTS: '30310',
  NOT_LOCKED: '30401',
  OPERATOR_LOCKED: '30402',
} as const satisfies Record<string, AdminResultCode>;

/** A result code of `ADMIN_CODES`. */
export type AdminCode = (typeof ADMIN_CODES)[keyof typeof ADMIN_CODES];
