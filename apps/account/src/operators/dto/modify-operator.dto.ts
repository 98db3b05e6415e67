import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { APP_TOKEN_PATTERN } from '@geoaccount/signing';
import { OPERATOR_ROLES } from '../../admin-sessions/admin-principal';
import { OPERATOR_APPS_MAX, OPERATOR_PASSWORD_MIN } from './create-operator.dto';

export const OPERATOR_STATES = ['enabled', 'disabled'] as const;

/** `PATCH /admin/v1/operators/{login}` (docs/contract.md §14): an omitted field keeps its value. */
export class ModifyOperatorDto {
  @IsOptional()
  @IsIn(OPERATOR_ROLES)
  role?: (typeof OPERATOR_ROLES)[number];

  @IsOptional()
  @Matches(APP_TOKEN_PATTERN, { each: true })
  @MaxLength(40, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(OPERATOR_APPS_MAX)
  @IsArray()
  apps?: string[];

  /** `enabled` also clears the sign-in lock. */
  @IsOptional()
  @IsIn(OPERATOR_STATES)
  state?: 'enabled' | 'disabled';

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  @MinLength(OPERATOR_PASSWORD_MIN)
  password?: string;
}
