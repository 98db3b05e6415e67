import { IsOptional, IsString } from 'class-validator';

/** Query of `GET /authgroups`. */
export class ListGroupsQuery {
  /** Comma-separated group ids; absent or empty: every group of the app. */
  @IsOptional()
  @IsString()
  group_ids?: string;
}
