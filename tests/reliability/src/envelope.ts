import { AccountCodes, AccountInterface, LbsCodes, LbsStat, accountSystemError } from '@geoaccount/api';

/** Every (code → HTTP statuses) pair of the account side of the result table in libs/api. */
function accountTable(): Map<string, Set<number>> {
  const table = new Map<string, Set<number>>();
  const add = (code: string, status: number) => table.set(code, (table.get(code) ?? new Set()).add(status));
  for (const rc of Object.values(AccountCodes)) add(rc.code, rc.status);
  for (const no of [undefined, ...Object.values(AccountInterface)]) {
    for (const status of [500, 503]) {
      const rc = accountSystemError(no, status);
      add(rc.code, rc.status);
    }
  }
  return table;
}

function lbsTable(): Map<string, Set<number>> {
  const table = new Map<string, Set<number>>();
  for (const rc of Object.values(LbsCodes)) table.set(rc.code, (table.get(rc.code) ?? new Set()).add(rc.status));
  return table;
}

export const ACCOUNT_TABLE = accountTable();
export const LBS_TABLE = lbsTable();

/**
 * What is wrong with an account answer, or `undefined` when it is a valid envelope: a JSON
 * object whose `response_code` is in the table with this HTTP status, and a string
 * `response_message` of at most 32 characters.
 */
export function accountEnvelopeProblem(status: number, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `not a JSON object: ${String(body).slice(0, 200)}`;
  const b = body as Record<string, unknown>;
  if (typeof b.response_code !== 'string') return `response_code missing: ${JSON.stringify(b).slice(0, 200)}`;
  const statuses = ACCOUNT_TABLE.get(b.response_code);
  if (!statuses) return `unknown response_code ${b.response_code}`;
  if (!statuses.has(status)) return `response_code ${b.response_code} with HTTP ${status} (table: ${[...statuses].join('/')})`;
  if (typeof b.response_message !== 'string' || b.response_message.length > 32)
    return `bad response_message ${JSON.stringify(b.response_message)}`;
  return undefined;
}

/**
 * What is wrong with a location answer: `code` in the table with this status, a string
 * `resultDesc`, and `lbsStat` 0 on failures, 1 or 2 on success.
 */
export function lbsEnvelopeProblem(status: number, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `not a JSON object: ${String(body).slice(0, 200)}`;
  const b = body as Record<string, unknown>;
  if (typeof b.code !== 'string') return `code missing: ${JSON.stringify(b).slice(0, 200)}`;
  const statuses = LBS_TABLE.get(b.code);
  if (!statuses) return `unknown code ${b.code}`;
  if (!statuses.has(status)) return `code ${b.code} with HTTP ${status} (table: ${[...statuses].join('/')})`;
  if (typeof b.resultDesc !== 'string') return `resultDesc missing`;
  const ok = status === 200;
  const stat = b.lbsStat;
  if (ok && stat !== LbsStat.UPSTREAM && stat !== LbsStat.CACHE) return `success with lbsStat ${String(stat)}`;
  if (!ok && stat !== LbsStat.FAILURE) return `failure with lbsStat ${String(stat)}`;
  return undefined;
}
