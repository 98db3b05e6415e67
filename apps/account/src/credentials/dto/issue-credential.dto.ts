import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The longest `retire_others_in`: 30 days (docs/contract.md §14). */
export const RETIRE_MAX_SECONDS = 2_592_000;

/** `POST /admin/v1/apps/{app_token}/credentials` (docs/contract.md §14). */
export class IssueCredentialDto {
  /** Seconds after which the other active credential is refused, as if revoked. */
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(RETIRE_MAX_SECONDS)
  retire_others_in?: number;
}
