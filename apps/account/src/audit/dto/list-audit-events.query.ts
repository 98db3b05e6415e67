import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { IsDigitsInRange, MaxChars, NoNulChar } from '../../users/dto/user-field.validators';

export const AUDIT_PAGE_SIZE_DEFAULT = 100;
export const AUDIT_PAGE_SIZE_MAX = 1000;
export const AUDIT_RESOURCE_TYPES = ['auth', 'auth_group', 'user'] as const;
export const AUDIT_ACTIONS = ['create', 'modify', 'login', 'login_failed', 'login_locked'] as const;
/** `YYYY-MM-DD HH:MM:SS` in the service's `TZ`. */
const TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/** Interface 207 (GET /audit-events): every filter optional, oldest first (CONTRACT §10). */
export class ListAuditEventsQuery {
  @IsOptional()
  @IsIn(AUDIT_RESOURCE_TYPES)
  resource_type?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(64)
  resource_id?: string;

  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  action?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(256)
  operator?: string;

  @IsOptional()
  @Matches(TIME, { message: 'expected YYYY-MM-DD HH:MM:SS' })
  from_time?: string;

  @IsOptional()
  @Matches(TIME, { message: 'expected YYYY-MM-DD HH:MM:SS' })
  to_time?: string;

  @IsOptional()
  @IsString()
  @IsDigitsInRange(1, Number.MAX_SAFE_INTEGER)
  @MaxChars(19)
  after_event_id?: string;

  @IsOptional()
  @IsString()
  @IsDigitsInRange(1, AUDIT_PAGE_SIZE_MAX)
  @MaxChars(4)
  page_size?: string;
}
