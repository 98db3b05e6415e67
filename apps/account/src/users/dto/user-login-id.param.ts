import { IsNotEmpty, IsString, Matches } from 'class-validator';
import { ID_PATTERN } from '../../common/field-rules';
import { MaxChars, USER_LIMITS } from './user-field.validators';

/**
 * The `{USER_LOGIN_ID}` path segment: 1 to 64 characters, no comma (the separator of
 * `user_login_ids`), no control character, no surrounding space.
 */
export class UserLoginIdParam {
  @IsString()
  @IsNotEmpty()
  @Matches(ID_PATTERN)
  @MaxChars(USER_LIMITS.user_login_id)
  user_login_id!: string;
}
