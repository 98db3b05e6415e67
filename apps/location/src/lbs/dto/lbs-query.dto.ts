import { ApiProperty } from '@nestjs/swagger';
import { BusinessParamsDto } from './business-params.dto';
import { IsDegrees, RequiredText } from './lbs-params';

/** `lbsQuery`: coordinates → address. */
export class LbsQueryDto extends BusinessParamsDto {
  @ApiProperty({ description: 'Longitude, decimal degrees in COORD_SYSTEM, -180…180', maxLength: 20, example: '116.397' })
  @RequiredText(20) @IsDegrees(180)
  'param.longitude'!: string;

  @ApiProperty({ description: 'Latitude, decimal degrees in COORD_SYSTEM, -90…90', maxLength: 20, example: '39.909' })
  @RequiredText(20) @IsDegrees(90)
  'param.latitude'!: string;
}
