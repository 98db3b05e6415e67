import { FIELD_LIMITS as L, NonEmptyIfSent } from '../../common/field-rules';
import { GroupFieldsDto } from './create-group.dto';

/**
 * Form fields of `PUT /authgroups/{GROUP_ID}`: all optional (an omitted field keeps its
 * value, an empty one is set empty; `group_auths` replaces the group's auths) — except that
 * the name cannot be emptied.
 */
export class ModifyGroupDto extends GroupFieldsDto {
  @NonEmptyIfSent(L.group_name)
  group_name?: string;
}
