import { Matches, ValidateBy } from 'class-validator';
import { DigitsIfSent, EnumIfSent, IfSent, FIELD_LIMITS as L, TextIfSent } from '../../common/field-rules';

export const AUDIT_PAGE_SIZE_DEFAULT = 100;
export const AUDIT_PAGE_SIZE_MAX = 1000;
export const AUDIT_RESOURCE_TYPES = ['auth', 'auth_group', 'user'] as const;
export const AUDIT_ACTIONS = ['create', 'modify', 'login', 'login_failed', 'login_locked'] as const;
/** `YYYY-MM-DD HH:MM:SS` in the service's `TZ`. */
const TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/**
 * Whether `YYYY-MM-DD HH:MM:SS` (already of that form) names a time that exists: year 0001 or
 * later, a day the month has (29 February only in a leap year). docs/contract.md §13: an
 * impossible date is a 400 naming the field, never a 500 from the database.
 */
export function isExistingTime(value: unknown): boolean {
  if (typeof value !== 'string' || !TIME.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (year < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** A time of `YYYY-MM-DD HH:MM:SS` that exists, when sent. */
function ExistingTimeIfSent(): PropertyDecorator {
  return IfSent(
    Matches(TIME, { message: 'expected YYYY-MM-DD HH:MM:SS' }),
    ValidateBy({ name: 'existingTime', validator: { validate: isExistingTime, defaultMessage: () => 'no such date' } }),
  );
}

/** Interface 207 (GET /audit-events): every filter optional, oldest first (docs/contract.md §10). */
export class ListAuditEventsQuery {
  @EnumIfSent(AUDIT_RESOURCE_TYPES)
  resource_type?: string;

  @TextIfSent(L.audit_resource_id)
  resource_id?: string;

  @EnumIfSent(AUDIT_ACTIONS)
  action?: string;

  @TextIfSent(L.audit_operator)
  operator?: string;

  @ExistingTimeIfSent()
  from_time?: string;

  @ExistingTimeIfSent()
  to_time?: string;

  @DigitsIfSent(1, Number.MAX_SAFE_INTEGER, 19)
  after_event_id?: string;

  @DigitsIfSent(1, AUDIT_PAGE_SIZE_MAX, 4)
  page_size?: string;
}
