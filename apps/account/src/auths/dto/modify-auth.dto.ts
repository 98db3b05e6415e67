import { IsNotEmpty, IsString, ValidateIf } from 'class-validator';
import { MaxChars, NoNulChar } from '../../common/field-rules';
import { AuthFieldsDto } from './create-auth.dto';

/**
 * Form fields of `PUT /auths/{AUTH_ID}`: those of create, all optional (an omitted field
 * keeps its value, an empty one is set empty) — except that the name cannot be emptied.
 */
export class ModifyAuthDto extends AuthFieldsDto {
  @ValidateIf((_: object, value: unknown) => value !== undefined)
  @IsString()
  @IsNotEmpty()
  @NoNulChar()
  @MaxChars(32)
  auth_name?: string;
}
