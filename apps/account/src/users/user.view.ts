import type { UserEntity } from './user.entity';
import type { JsonSchema } from '@geoaccount/http';
import { closedObject, nullableText, text } from '../common/account-openapi';

/** A user as every answer shows it: all fields of the spec's User table, passwords always null. */
export interface UserView {
  user_id: string;
  user_login_id: string;
  org_id: string | null;
  user_pwd: null;
  user_pwd_encrypt: null;
  user_name: string;
  user_short_name: string | null;
  user_type: string;
  is_domain_user: string;
  cert_type: string | null;
  cert_id: string | null;
  cert_id_encrypt: string | null;
  user_mobile: string | null;
  user_mobile_encrypt: string | null;
  user_auths: string | null;
  user_auth_groups: string | null;
  user_extends: string | null;
}

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

/** `UserView` in the OpenAPI document. */
export const USER_SCHEMA = closedObject({
  user_id: text,
  user_login_id: text,
  org_id: nullableText,
  user_pwd: { type: 'null' },
  user_pwd_encrypt: { type: 'null' },
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
} satisfies Record<keyof UserView, JsonSchema>);
