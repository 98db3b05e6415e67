import { RecordId } from '../../common/field-rules';

/** The `{AUTH_ID}` path segment (signed as `auth_id`). */
export class AuthIdParam {
  @RecordId(16)
  auth_id!: string;
}
