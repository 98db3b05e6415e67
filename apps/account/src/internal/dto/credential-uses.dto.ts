import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsISO8601, IsString, MaxLength, ValidateNested } from 'class-validator';

/** Most uses of one report. */
export const CREDENTIAL_USES_MAX = 10_000;

export class CredentialUseDto {
  @IsDefined()
  @IsString()
  @MaxLength(40)
  credential_id!: string;

  /** ISO 8601, e.g. `2026-01-01T08:30:00Z`. */
  @IsDefined()
  @IsISO8601({ strict: true })
  time!: string;
}

/** `POST /internal/v1/credential-uses` (docs/contract.md §14): location's recorded uses. */
export class CredentialUsesDto {
  @IsDefined()
  @ValidateNested({ each: true })
  @Type(() => CredentialUseDto)
  @ArrayMaxSize(CREDENTIAL_USES_MAX)
  @IsArray()
  uses!: CredentialUseDto[];
}
