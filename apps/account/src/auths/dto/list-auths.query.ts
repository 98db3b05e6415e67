import { IsOptional, IsString } from 'class-validator';
import { IsRecordId, MaxChars, OptionalDigits, OptionalEnum, OptionalField, OptionalText } from '../../common/field-rules';
import { AUTH_STATES } from './create-auth.dto';

/** Query of `GET /auths`: every filter is optional; an empty one is no filter, except `parent_auth_id`. */
export class ListAuthsQuery {
  /** Comma-separated auth ids. */
  @IsOptional()
  @IsString()
  auth_ids?: string;

  @OptionalEnum(AUTH_STATES)
  auth_state?: string;

  @OptionalText(8)
  auth_type?: string;

  @OptionalDigits(2)
  auth_level?: string;

  /** Children of this auth; empty: the auths without a parent. */
  @OptionalField(MaxChars(16), IsRecordId())
  parent_auth_id?: string;
}
