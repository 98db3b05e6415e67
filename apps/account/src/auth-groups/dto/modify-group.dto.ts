import { IsNotEmpty, IsString, ValidateIf } from 'class-validator';
import { MaxChars, NoNulChar } from '../../common/field-rules';
import { GroupFieldsDto } from './create-group.dto';

/**
 * Form fields of `PUT /authgroups/{GROUP_ID}`: all optional (an omitted field keeps its
 * value, an empty one is set empty; `group_auths` replaces the group's auths) — except that
 * the name cannot be emptied.
 */
export class ModifyGroupDto extends GroupFieldsDto {
  @ValidateIf((_: object, value: unknown) => value !== undefined)
  @IsString()
  @IsNotEmpty()
  @NoNulChar()
  @MaxChars(32)
  group_name?: string;
}
