import { DigitsIfSent, FIELD_LIMITS as L, IfSent, IsCanonicalText, IsIdList, NoNulChar, TextIfSent } from '../../common/field-rules';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 1000;

/**
 * Interface 202 (GET /users). `page_number` (var 8, at least 1, default 1) and `page_size`
 * (var 64, 1 to 1000, default 20) are digits only; `user_login_ids` is a comma list.
 */
export class ListUsersQuery {
  @DigitsIfSent(1, 99_999_999, 8)
  page_number?: string;

  @DigitsIfSent(1, PAGE_SIZE_MAX, 64)
  page_size?: string;

  @IfSent(IsIdList(), NoNulChar())
  user_login_ids?: string;

  @TextIfSent(L.org_id, IsCanonicalText())
  org_id?: string;
}
