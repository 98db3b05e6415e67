import { IsIn, IsNotEmpty, IsOptional, IsString, ValidateIf } from 'class-validator';
import { DOMAIN_FLAGS, IsPasswordUnlessDomainUser, MaxChars, NoNulChar, USER_LIMITS as L, USER_TYPES } from './user-field.validators';
import { UserFieldsDto } from './user-fields.dto';

/**
 * Interface 9 (POST /users/{USER_LOGIN_ID}). Required: `user_name`, `user_type`, and
 * `user_pwd` unless `is_domain_user` is `1`; a field sent empty is stored empty.
 */
export class RegisterUserDto extends UserFieldsDto {
  /** Required unless `is_domain_user` is `1` (a domain account may have no password here). */
  @ValidateIf((dto: RegisterUserDto) => dto.is_domain_user !== '1' || dto.user_pwd !== undefined)
  @IsString()
  @IsPasswordUnlessDomainUser()
  @NoNulChar()
  @MaxChars(L.user_pwd)
  user_pwd?: string;

  @IsString()
  @IsNotEmpty()
  @NoNulChar()
  @MaxChars(L.user_name)
  user_name!: string;

  @IsString()
  @IsIn(USER_TYPES)
  user_type!: string;

  @IsOptional()
  @IsString()
  @IsIn(DOMAIN_FLAGS)
  is_domain_user?: string;
}
