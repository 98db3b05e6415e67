import { IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { MaxChars, NoNulChar, USER_LIMITS as L, USER_TYPES } from './user-field.validators';
import { UserFieldsDto } from './user-fields.dto';

/**
 * Interface 10 (PUT /users/{USER_LOGIN_ID}): the fields of a registration without
 * `is_domain_user`, all optional. An omitted field keeps its value, a field sent empty is
 * set empty; `user_name` and `user_type` cannot be emptied, and `user_pwd` only on a
 * domain account (the service checks that).
 */
export class ModifyUserDto extends UserFieldsDto {
  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_pwd)
  user_pwd?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @NoNulChar()
  @MaxChars(L.user_name)
  user_name?: string;

  @IsOptional()
  @IsString()
  @IsIn(USER_TYPES)
  user_type?: string;
}
