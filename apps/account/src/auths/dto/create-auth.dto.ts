import { FIELD_LIMITS as L, OptionalDigits, OptionalEnum, OptionalRecordId, OptionalText, RequiredText } from '../../common/field-rules';

export const AUTH_STATES = ['0', '1'] as const;
export const SUB_AUTH_FLAGS = ['0', '1'] as const;

/** The optional fields of an auth (interfaces 100 and 101; lengths are the input lengths). */
export class AuthFieldsDto {
  @OptionalText(L.auth_desc)
  auth_desc?: string;

  /** 0 = NOK, 1 = OK. */
  @OptionalEnum(AUTH_STATES)
  auth_state?: string;

  @OptionalText(L.auth_type)
  auth_type?: string;

  /** A natural number of at most two digits. */
  @OptionalDigits(L.auth_level_digits)
  auth_level?: string;

  /** An existing auth of the same app; empty: none. */
  @OptionalRecordId(L.auth_id)
  parent_auth_id?: string;

  /** 0 = no sub-permissions, 1 = has sub-permissions. */
  @OptionalEnum(SUB_AUTH_FLAGS)
  sub_auth_flag?: string;
}

/** Form fields of `POST /auths/{AUTH_ID}`: the name is required. */
export class CreateAuthDto extends AuthFieldsDto {
  @RequiredText(L.auth_name)
  auth_name!: string;
}
