import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { APP_TOKEN_PATTERN } from '@geoaccount/signing';
import { OPERATOR_ROLES } from '../../admin-sessions/admin-principal';

/** An operator's login: letters, digits and `. _ @ -`, at most 64. */
export const OPERATOR_LOGIN_PATTERN = /^[A-Za-z0-9._@-]+$/;
/** docs/contract.md §14: an operator password has at least 12 characters. */
export const OPERATOR_PASSWORD_MIN = 12;
export const OPERATOR_APPS_MAX = 1000;

/** `POST /admin/v1/operators` (docs/contract.md §14): a password or `directory: true`. */
export class CreateOperatorDto {
  @IsDefined()
  @IsString()
  @MaxLength(64)
  @Matches(OPERATOR_LOGIN_PATTERN)
  login!: string;

  @IsDefined()
  @IsIn(OPERATOR_ROLES)
  role!: (typeof OPERATOR_ROLES)[number];

  @IsOptional()
  @Matches(APP_TOKEN_PATTERN, { each: true })
  @MaxLength(40, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(OPERATOR_APPS_MAX)
  @IsArray()
  apps?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  @MinLength(OPERATOR_PASSWORD_MIN)
  password?: string;

  @IsOptional()
  @IsBoolean()
  directory?: boolean;
}
