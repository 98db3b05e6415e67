import { DigitsIfSent, EnumIfSent, FIELD_LIMITS as L, PatternIfSent, TextIfSent } from '../../common/field-rules';
import { AUDIT_PAGE_SIZE_MAX } from './list-audit-events.query';

export const ADMIN_AUDIT_RESOURCE_TYPES = ['auth', 'auth_group', 'user', 'app', 'credential', 'operator', 'session'] as const;
export const ADMIN_AUDIT_ACTIONS = ['create', 'modify', 'revoke', 'login', 'login_failed', 'login_locked'] as const;
const TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/**
 * `GET /admin/v1/audit-events` (docs/contract.md §14): the §10 query over every resource type
 * and action, plus `app_token` (`""`: the admin-level events of operators and sessions).
 */
export class ListAdminAuditEventsQuery {
  @TextIfSent(40)
  app_token?: string;

  @EnumIfSent(ADMIN_AUDIT_RESOURCE_TYPES)
  resource_type?: string;

  @TextIfSent(L.audit_resource_id)
  resource_id?: string;

  @EnumIfSent(ADMIN_AUDIT_ACTIONS)
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
