import { IsIn, IsNotEmpty, IsOptional, IsString, ValidateIf } from 'class-validator';
import {
  CERT_TYPES,
  DOMAIN_FLAGS,
  IsCommaList,
  IsJsonObjectText,
  IsPasswordUnlessDomainUser,
  MaxChars,
  NoNulChar,
  USER_LIMITS as L,
  USER_TYPES,
} from './user-field.validators';

/**
 * Interface 9 (POST /users/{USER_LOGIN_ID}). Required: `user_name`, `user_type`, and
 * `user_pwd` unless `is_domain_user` is `1`; a field sent empty is stored empty.
 */
export class RegisterUserDto {
  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.org_id)
  org_id?: string;

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

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_short_name)
  user_short_name?: string;

  @IsString()
  @IsIn(USER_TYPES)
  user_type!: string;

  @IsOptional()
  @IsString()
  @IsIn(DOMAIN_FLAGS)
  is_domain_user?: string;

  @IsOptional()
  @IsString()
  @IsIn(CERT_TYPES)
  cert_type?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.cert_id)
  cert_id?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.cert_id_encrypt)
  cert_id_encrypt?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_mobile)
  user_mobile?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_mobile_encrypt)
  user_mobile_encrypt?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_auths)
  @IsCommaList()
  user_auths?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_auth_groups)
  @IsCommaList()
  user_auth_groups?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_extends)
  @IsJsonObjectText()
  user_extends?: string;
}
