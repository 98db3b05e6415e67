import type { ResultCode } from '@geoaccount/api';

/** Result codes of app credentials in the admin API (docs/contract.md §14). */
export const CredentialCodes = {
  NOT_FOUND: { code: '30201', status: 404, message: 'no such credential' },
  TWO_ACTIVE: { code: '30120', status: 409, message: 'two active credentials already' },
} as const satisfies Record<string, ResultCode>;
