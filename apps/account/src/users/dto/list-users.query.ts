import { IsOptional, IsString } from 'class-validator';
import { IsCanonicalText, IsDigitsInRange, IsIdList, MaxChars, NoNulChar, USER_LIMITS } from './user-field.validators';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 1000;

/**
 * Interface 11 (GET /users). `page_number` (var 8, at least 1, default 1) and `page_size`
 * (var 64, 1 to 1000, default 20) are digits only; `user_login_ids` is a comma list.
 */
export class ListUsersQuery {
  @IsOptional()
  @IsString()
  @IsDigitsInRange(1, 99_999_999)
  @MaxChars(8)
  page_number?: string;

  @IsOptional()
  @IsString()
  @IsDigitsInRange(1, PAGE_SIZE_MAX)
  @MaxChars(64)
  page_size?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @IsIdList()
  user_login_ids?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(USER_LIMITS.org_id)
  @IsCanonicalText()
  org_id?: string;
}
