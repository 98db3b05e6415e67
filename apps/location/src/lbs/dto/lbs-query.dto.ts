import { BusinessParamsDto } from './business-params.dto';
import { IsDegrees, RequiredText } from './lbs-params';

/** `lbsQuery`: coordinates → address. */
export class LbsQueryDto extends BusinessParamsDto {
  @RequiredText(20) @IsDegrees(180)
  'param.longitude'!: string;

  @RequiredText(20) @IsDegrees(90)
  'param.latitude'!: string;
}
