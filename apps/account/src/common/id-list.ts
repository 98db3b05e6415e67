import { InvalidParameterException } from '@geoaccount/api';
import { ID_PATTERN, isCanonicalText } from './field-rules';

/**
 * Splits a comma-separated id list (`auth_ids`, `group_auths`, ...): items are trimmed and
 * deduplicated, order kept. An empty string is an empty list; an empty item, or one that is
 * not a record id (`ID_PATTERN`; the whole list `isCanonicalText`), is refused. `stored`: a
 * list read back from the database, checked when it was written, is only split.
 */
export function parseIdList(value: string | undefined, field: string, stored = false): string[] {
  if (value === undefined || value === '') return [];
  if (!stored && !isCanonicalText(value)) throw new InvalidParameterException(field);
  const ids: string[] = [];
  for (const raw of value.split(',')) {
    const id = raw.trim();
    if (id === '') throw new InvalidParameterException(field, 'empty item in');
    if (!stored && !ID_PATTERN.test(id)) throw new InvalidParameterException(field);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
