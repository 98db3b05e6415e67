import { EnumIfSent, FIELD_LIMITS as L, PasswordUnlessDomainUser, RequiredEnum, RequiredText } from '../../common/field-rules';
import { DOMAIN_FLAGS, USER_TYPES } from './user-field.validators';
import { UserFieldsDto } from './user-fields.dto';

/**
 * Interface 200 (POST /users/{USER_LOGIN_ID}). Required: `user_name`, `user_type`, and
 * `user_pwd` unless `is_domain_user` is `1`; a field sent empty is stored empty.
 */
export class RegisterUserDto extends UserFieldsDto {
  /** Required unless `is_domain_user` is `1` (a domain account may have no password here). */
  @PasswordUnlessDomainUser(L.user_pwd)
  user_pwd?: string;

  @RequiredText(L.user_name)
  user_name!: string;

  @RequiredEnum(USER_TYPES)
  user_type!: string;

  @EnumIfSent(DOMAIN_FLAGS)
  is_domain_user?: string;
}
