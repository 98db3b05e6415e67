import { BusinessParamsDto } from './business-params.dto';
import { RequiredText } from './lbs-params';

/** `addressQuery`: city + address → coordinates. */
export class AddressQueryDto extends BusinessParamsDto {
  @RequiredText(255)
  'param.city'!: string;

  @RequiredText(255)
  'param.address'!: string;
}
