import { FIELD_LIMITS as L, OptionalEnum, OptionalText, RequiredText } from '../../common/field-rules';

export const GROUP_STATES = ['0', '1'] as const;

/** The optional fields of a group (interfaces 104 and 105; lengths are the input lengths). */
export class GroupFieldsDto {
  @OptionalText(L.group_desc)
  group_desc?: string;

  @OptionalText(L.group_type)
  group_type?: string;

  @OptionalEnum(GROUP_STATES)
  group_state?: string;

  /** Comma-separated ids of existing auths of the same app; empty: none. */
  @OptionalText(L.group_auths)
  group_auths?: string;
}

/** Form fields of `POST /authgroups/{GROUP_ID}`: the name is required. */
export class CreateGroupDto extends GroupFieldsDto {
  @RequiredText(L.group_name)
  group_name!: string;

  /** The spec's create example sends it, its table does not list it: accepted, not stored. */
  @OptionalText(L.org_id)
  org_id?: string;
}
