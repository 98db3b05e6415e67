import { RecordId } from '../../common/field-rules';

/** The `{GROUP_ID}` path segment (signed as `group_id`). */
export class GroupIdParam {
  @RecordId(64)
  group_id!: string;
}
