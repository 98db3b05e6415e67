import { IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { DOMAIN_FLAGS, MaxChars } from '../../users/dto/user-field.validators';

/** Interface 13 (POST /users/login/{USER_LOGIN_ID}). */
export class LoginDto {
  /** The password encrypted with the app's AES key and mode, Base64 (CONTRACT §4). */
  @IsString()
  @IsNotEmpty()
  @MaxChars(256)
  user_pwd_encrypt!: string;

  /** When sent, must equal the stored flag (else 20442). */
  @IsOptional()
  @IsString()
  @IsIn(DOMAIN_FLAGS)
  is_domain_user?: string;
}
