import { accountEnvelope } from '@geoaccount/api';
import { AccountCodes, AccountInterface } from './account-codes';

/**
 * The "no data" code of each list interface: a list query with no match answers 200 with it,
 * `count` "0" and empty arrays (docs/contract.md §6, §10). The one place of that rule.
 */
const NO_MATCH = {
  [AccountInterface.LIST_AUTHS]: AccountCodes.AUTH_LIST_EMPTY,
  [AccountInterface.LIST_GROUPS]: AccountCodes.GROUP_LIST_EMPTY,
  [AccountInterface.LIST_USERS]: AccountCodes.USER_LIST_EMPTY,
  [AccountInterface.USER_AUTHS]: AccountCodes.USER_AUTHS_EMPTY,
  [AccountInterface.AUDIT_EVENTS]: AccountCodes.AUDIT_EVENTS_EMPTY,
} as const;

export type ListInterfaceNo = keyof typeof NO_MATCH;

/**
 * The answer of list interface `no`: 90000 with `fields` when the query matched `matches`
 * records, else the interface's "no data" code with `fields` (whose `count` is "0" and whose
 * arrays are empty).
 */
export function listAnswer(no: ListInterfaceNo, matches: number, fields: Record<string, unknown>): Record<string, unknown> {
  const result = matches === 0 ? NO_MATCH[no] : AccountCodes.OK;
  return accountEnvelope.body(result, result.message, fields);
}
