import { FIELD_LIMITS as L, NonEmptyIfSent } from '../../common/field-rules';
import { AuthFieldsDto } from './create-auth.dto';

/**
 * Form fields of `PUT /auths/{AUTH_ID}`: those of create, all optional (an omitted field
 * keeps its value, an empty one is set empty) — except that the name cannot be emptied.
 */
export class ModifyAuthDto extends AuthFieldsDto {
  @NonEmptyIfSent(L.auth_name)
  auth_name?: string;
}
