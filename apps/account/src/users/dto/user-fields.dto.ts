import { EnumIfSent, FIELD_LIMITS as L, IsCanonicalText, IsIdList, TextIfSent } from '../../common/field-rules';
import { CERT_TYPES, IsJsonObjectText } from './user-field.validators';

/**
 * The optional user fields that registration (interface 200) and modification (interface 201)
 * share, with the spec's input lengths. A field sent empty is stored empty.
 */
export class UserFieldsDto {
  @TextIfSent(L.org_id, IsCanonicalText())
  org_id?: string;

  @TextIfSent(L.user_short_name)
  user_short_name?: string;

  @EnumIfSent(CERT_TYPES)
  cert_type?: string;

  @TextIfSent(L.cert_id)
  cert_id?: string;

  @TextIfSent(L.cert_id_encrypt)
  cert_id_encrypt?: string;

  @TextIfSent(L.user_mobile)
  user_mobile?: string;

  @TextIfSent(L.user_mobile_encrypt)
  user_mobile_encrypt?: string;

  @TextIfSent(L.user_auths, IsIdList())
  user_auths?: string;

  @TextIfSent(L.user_auth_groups, IsIdList())
  user_auth_groups?: string;

  @TextIfSent(L.user_extends, IsJsonObjectText())
  user_extends?: string;
}
