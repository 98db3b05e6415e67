import { DigitsIfSent, EnumIfSent, FIELD_LIMITS as L, PatternIfSent, TextIfSent } from '../../common/field-rules';

export const AUDIT_PAGE_SIZE_DEFAULT = 100;
export const AUDIT_PAGE_SIZE_MAX = 1000;
export const AUDIT_RESOURCE_TYPES = ['auth', 'auth_group', 'user'] as const;
export const AUDIT_ACTIONS = ['create', 'modify', 'login', 'login_failed', 'login_locked'] as const;
/** `YYYY-MM-DD HH:MM:SS` in the service's `TZ`. */
const TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

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

  @PatternIfSent(TIME, 'expected YYYY-MM-DD HH:MM:SS')
  from_time?: string;

  @PatternIfSent(TIME, 'expected YYYY-MM-DD HH:MM:SS')
  to_time?: string;

  @DigitsIfSent(1, Number.MAX_SAFE_INTEGER, 19)
  after_event_id?: string;

  @DigitsIfSent(1, AUDIT_PAGE_SIZE_MAX, 4)
  page_size?: string;
}
