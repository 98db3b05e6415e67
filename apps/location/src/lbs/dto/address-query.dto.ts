import { ApiProperty } from '@nestjs/swagger';
import { BusinessParamsDto } from './business-params.dto';
import { RequiredText } from './lbs-params';

/** `addressQuery`: city + address → coordinates. */
export class AddressQueryDto extends BusinessParamsDto {
  @ApiProperty({ description: 'City', maxLength: 255, example: '上海' })
  @RequiredText(255)
  'param.city'!: string;

  @ApiProperty({ description: 'Address', maxLength: 255, example: '浦东新区世纪大道100号' })
  @RequiredText(255)
  'param.address'!: string;
}
