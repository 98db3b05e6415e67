import { IsDefined, IsString, MaxLength } from 'class-validator';

/** `POST /admin/v1/sessions` (docs/contract.md §14). */
export class OpenSessionDto {
  @IsDefined()
  @IsString()
  @MaxLength(64)
  login!: string;

  @IsDefined()
  @IsString()
  @MaxLength(1024)
  password!: string;
}
