import type { ResultCode } from '@geoaccount/api';

/** Result codes of the operators of the admin API (docs/contract.md §14). */
export const OperatorCodes = {
  NOT_FOUND: { code: '30301', status: 404, message: 'no such operator' },
  EXISTS: { code: '30310', status: 409, message: 'the operator exists' },
} as const satisfies Record<string, ResultCode>;
