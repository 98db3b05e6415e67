import { IsIn, IsOptional, IsString } from 'class-validator';
import { CERT_TYPES, IsCanonicalText, IsIdList, IsJsonObjectText, MaxChars, NoNulChar, USER_LIMITS as L } from './user-field.validators';

/**
 * The optional user fields that registration (interface 9) and modification (interface 10)
 * share, with the spec's input lengths. A field sent empty is stored empty.
 */
export class UserFieldsDto {
  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.org_id)
  @IsCanonicalText()
  org_id?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_short_name)
  user_short_name?: string;

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
  @IsIdList()
  user_auths?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_auth_groups)
  @IsIdList()
  user_auth_groups?: string;

  @IsOptional()
  @IsString()
  @NoNulChar()
  @MaxChars(L.user_extends)
  @IsJsonObjectText()
  user_extends?: string;
}
