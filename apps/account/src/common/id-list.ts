import { InvalidParameterException } from '@geoaccount/api';

/**
 * Splits a comma-separated id list (`auth_ids`, `group_auths`, ...): items are trimmed and
 * deduplicated, order kept. An empty string is an empty list; an empty item, or one with a
 * NUL character, is refused.
 */
export function parseIdList(value: string | undefined, field: string): string[] {
  if (value === undefined || value === '') return [];
  const ids: string[] = [];
  for (const raw of value.split(',')) {
    const id = raw.trim();
    if (id === '') throw new InvalidParameterException(field, 'empty item in');
    // NUL: no stored id has one, and PostgreSQL refuses it in a query parameter.
    if (id.includes('\u0000')) throw new InvalidParameterException(field);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
