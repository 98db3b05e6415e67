import { IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { CERT_TYPES, IsCommaList, IsJsonObjectText, MaxChars, NoNulChar, USER_LIMITS as L, USER_TYPES } from './user-field.validators';

/**
 * Interface 10 (PUT /users/{USER_LOGIN_ID}): the fields of a registration without
 * `is_domain_user`, all optional. An omitted field keeps its value, a field sent empty is
 * set empty; `user_name` and `user_type` cannot be emptied, and `user_pwd` only on a
 * domain account (the service checks that).
 */
export class ModifyUserDto {
  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.org_id)
  org_id?: string;

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
  @NoNulChar()
  @MaxChars(L.user_short_name)
  user_short_name?: string;

  @IsOptional()
  @IsString()
  @IsIn(USER_TYPES)
  user_type?: string;

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
