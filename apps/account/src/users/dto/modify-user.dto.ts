import { EnumIfSent, FIELD_LIMITS as L, NonEmptyIfSent, TextIfSent } from '../../common/field-rules';
import { USER_TYPES } from './user-field.validators';
import { UserFieldsDto } from './user-fields.dto';

/**
 * Interface 201 (PUT /users/{USER_LOGIN_ID}): the fields of a registration without
 * `is_domain_user`, all optional. An omitted field keeps its value, a field sent empty is
 * set empty; `user_name` and `user_type` cannot be emptied, and `user_pwd` only on a
 * domain account (the service checks that).
 */
export class ModifyUserDto extends UserFieldsDto {
  @TextIfSent(L.user_pwd)
  user_pwd?: string;

  @NonEmptyIfSent(L.user_name)
  user_name?: string;

  @EnumIfSent(USER_TYPES)
  user_type?: string;
}
