import { MaxChars, OptionalEnum, OptionalField, OptionalText, RequiredText } from '../../common/field-rules';

export const GROUP_STATES = ['0', '1'] as const;

/** The optional fields of a group (spec endpoints 5 and 6; lengths are the input lengths). */
export class GroupFieldsDto {
  @OptionalText(64)
  group_desc?: string;

  @OptionalText(32)
  group_type?: string;

  @OptionalEnum(GROUP_STATES)
  group_state?: string;

  /** Comma-separated ids of existing auths of the same app; empty: none. */
  @OptionalField(MaxChars(1024))
  group_auths?: string;
}

/** Form fields of `POST /authgroups/{GROUP_ID}`: the name is required. */
export class CreateGroupDto extends GroupFieldsDto {
  @RequiredText(32)
  group_name!: string;

  /** The spec's create example sends it, its table does not list it: accepted, not stored. */
  @OptionalText(16)
  org_id?: string;
}
