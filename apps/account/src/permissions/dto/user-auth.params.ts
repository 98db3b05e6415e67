import { IsNotEmpty, IsString, Matches } from 'class-validator';
import { ID_PATTERN } from '../../common/field-rules';
import { UserLoginIdParam } from '../../users/dto/user-login-id.param';
import { MaxChars } from '../../users/dto/user-field.validators';

/** The `{USER_LOGIN_ID}` and `{AUTH_ID}` path segments of interface 206. */
export class UserAuthParams extends UserLoginIdParam {
  @IsString()
  @IsNotEmpty()
  @Matches(ID_PATTERN)
  @MaxChars(16)
  auth_id!: string;
}
