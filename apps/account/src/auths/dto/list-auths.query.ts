import { FIELD_LIMITS as L, IfSent, OptionalDigits, OptionalEnum, OptionalRecordId, OptionalText } from '../../common/field-rules';
import { AUTH_STATES } from './create-auth.dto';

/** Query of `GET /auths`: every filter is optional; an empty one is no filter, except `parent_auth_id`. */
export class ListAuthsQuery {
  /** Comma-separated auth ids. */
  @IfSent()
  auth_ids?: string;

  @OptionalEnum(AUTH_STATES)
  auth_state?: string;

  @OptionalText(L.auth_type)
  auth_type?: string;

  @OptionalDigits(L.auth_level_digits)
  auth_level?: string;

  /** Children of this auth; empty: the auths without a parent. */
  @OptionalRecordId(L.auth_id)
  parent_auth_id?: string;
}
