import { IfSent } from '../../common/field-rules';

/** Query of `GET /authgroups`. */
export class ListGroupsQuery {
  /** Comma-separated group ids; absent or empty: every group of the app. */
  @IfSent()
  group_ids?: string;
}
