import type { ResultCode } from '@geoaccount/api';

/** Result codes of user login lockouts in the admin API (docs/contract.md §14). */
export const LockoutCodes = {
  NOT_LOCKED: { code: '30401', status: 404, message: 'not locked' },
} as const satisfies Record<string, ResultCode>;
