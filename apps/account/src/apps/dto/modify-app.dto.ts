import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { APP_NAME_PATTERN } from './create-app.dto';

export const APP_STATES = ['enabled', 'disabled'] as const;

/** `PATCH /admin/v1/apps/{app_token}` (docs/contract.md §14): an omitted field keeps its value. */
export class ModifyAppDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(APP_NAME_PATTERN)
  app_name?: string;

  @IsOptional()
  @IsIn(APP_STATES)
  state?: 'enabled' | 'disabled';
}
