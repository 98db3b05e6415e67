import type { ResultCode } from '@geoaccount/api';

/** Result codes of apps in the admin API (docs/contract.md §14). */
export const AppCodes = {
  NOT_FOUND: { code: '30101', status: 404, message: 'no such app' },
  CONFIG_READ_ONLY: { code: '30130', status: 409, message: 'a config app cannot be changed' },
} as const satisfies Record<string, ResultCode>;
