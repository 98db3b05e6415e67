import type { ResultCode } from '@geoaccount/api';

/** Result codes of the internal API (service to service, docs/contract.md §14). */
export const InternalCodes = {
  BAD_TOKEN: { code: '90401', status: 401, message: 'bad internal token' },
} as const satisfies Record<string, ResultCode>;
