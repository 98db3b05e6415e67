import type { UserEntity } from './user.entity';
import { type ViewOf, closedObject, nullField, nullableText, text } from '../common/account-openapi';

/** A user as every answer shows it: all fields of the spec's User table, passwords always null. */
const USER_FIELDS = {
  user_id: text,
  user_login_id: text,
  org_id: nullableText,
  user_pwd: nullField,
  user_pwd_encrypt: nullField,
  user_name: text,
  user_short_name: nullableText,
  user_type: text,
  is_domain_user: text,
  cert_type: nullableText,
  cert_id: nullableText,
  cert_id_encrypt: nullableText,
  user_mobile: nullableText,
  user_mobile_encrypt: nullableText,
  user_auths: nullableText,
  user_auth_groups: nullableText,
  user_extends: nullableText,
} as const;

export type UserView = ViewOf<typeof USER_FIELDS>;

/** `UserView` in the OpenAPI document. */
export const USER_SCHEMA = closedObject(USER_FIELDS);

export function toUserView(user: UserEntity): UserView {
  return {
    user_id: user.userId,
    user_login_id: user.userLoginId,
    org_id: user.orgId,
    user_pwd: null,
    user_pwd_encrypt: null,
    user_name: user.userName,
    user_short_name: user.userShortName,
    user_type: user.userType,
    is_domain_user: user.isDomainUser,
    cert_type: user.certType,
    cert_id: user.certId,
    cert_id_encrypt: user.certIdEncrypt,
    user_mobile: user.userMobile,
    user_mobile_encrypt: user.userMobileEncrypt,
    user_auths: user.userAuths,
    user_auth_groups: user.userAuthGroups,
    user_extends: user.userExtends,
  };
}
