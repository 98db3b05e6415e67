import type { ResultCode } from '@geoaccount/api';

/** Result codes of the admin API's authentication and roles (docs/contract.md §14). */
export const AdminSessionCodes = {
  SIGNED_IN: { code: '90000', status: 201, message: 'success' },
  NOT_SIGNED_IN: { code: '90401', status: 401, message: 'not signed in' },
  BAD_CREDENTIALS: { code: '90401', status: 401, message: 'sign-in failed' },
  FORBIDDEN: { code: '90403', status: 403, message: 'the role does not allow it' },
  CSRF: { code: '90403', status: 403, message: 'missing or wrong X-CSRF-Token' },
  OPERATOR_LOCKED: { code: '30402', status: 403, message: 'operator locked' },
} as const satisfies Record<string, ResultCode>;
