import { BusinessParamsDto } from './business-params.dto';
import { IsDigits, RequiredText } from './lbs-params';

/** `baseStationQuery`: mcc, mnc, lac, cellid → coordinates and address. */
export class BaseStationQueryDto extends BusinessParamsDto {
  @RequiredText(20) @IsDigits()
  'param.mcc'!: string;

  @RequiredText(20) @IsDigits()
  'param.mnc'!: string;

  @RequiredText(20) @IsDigits()
  'param.lac'!: string;

  @RequiredText(20) @IsDigits()
  'param.cellid'!: string;
}
