import { EnumIfSent, FIELD_LIMITS as L, RequiredOpaque } from '../../common/field-rules';
import { DOMAIN_FLAGS } from '../../users/dto/user-field.validators';

/** Interface 204 (POST /users/login/{USER_LOGIN_ID}). */
export class LoginDto {
  /** The password encrypted with the app's AES key and mode, Base64 (docs/contract.md §4). */
  @RequiredOpaque(L.user_pwd_encrypt)
  user_pwd_encrypt!: string;

  /** When sent, must equal the stored flag (else 20442). */
  @EnumIfSent(DOMAIN_FLAGS)
  is_domain_user?: string;
}
