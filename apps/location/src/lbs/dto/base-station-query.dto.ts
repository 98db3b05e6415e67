import { ApiProperty } from '@nestjs/swagger';
import { BusinessParamsDto } from './business-params.dto';
import { IsDigits, RequiredText } from './lbs-params';

/** `baseStationQuery`: mcc, mnc, lac, cellid → coordinates and address. */
export class BaseStationQueryDto extends BusinessParamsDto {
  @ApiProperty({ description: 'Mobile country code, digits', maxLength: 20, example: '460' })
  @RequiredText(20) @IsDigits()
  'param.mcc'!: string;

  @ApiProperty({ description: 'Mobile network code, digits', maxLength: 20, example: '0' })
  @RequiredText(20) @IsDigits()
  'param.mnc'!: string;

  @ApiProperty({ description: 'Location area code (LTE: TAC), digits', maxLength: 20, example: '4000' })
  @RequiredText(20) @IsDigits()
  'param.lac'!: string;

  @ApiProperty({ description: 'Cell id (LTE: ECI), digits', maxLength: 20, example: '10000' })
  @RequiredText(20) @IsDigits()
  'param.cellid'!: string;
}
