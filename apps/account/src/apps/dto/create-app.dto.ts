import { IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export const AES_MODES = ['gcm', 'ecb'] as const;
/** Some visible character, no control character. */
export const APP_NAME_PATTERN = /^(?=.*\S)\P{Cc}+$/u;

/** `POST /admin/v1/apps` (docs/contract.md §14). */
export class CreateAppDto {
  @IsDefined()
  @IsString()
  @MaxLength(64)
  @Matches(APP_NAME_PATTERN)
  app_name!: string;

  @IsOptional()
  @IsIn(AES_MODES)
  aes_mode?: 'gcm' | 'ecb';
}
