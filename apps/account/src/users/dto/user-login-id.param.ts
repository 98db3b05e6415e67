import { IsNotEmpty, IsString } from 'class-validator';
import { MaxChars, NoNulChar, USER_LIMITS } from './user-field.validators';

/** The `{USER_LOGIN_ID}` path segment. */
export class UserLoginIdParam {
  @IsString()
  @IsNotEmpty()
  @NoNulChar()
  @MaxChars(USER_LIMITS.user_login_id)
  user_login_id!: string;
}
