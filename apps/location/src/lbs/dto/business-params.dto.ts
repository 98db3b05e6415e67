import { OptionalText } from './lbs-params';

/**
 * The optional business parameters every operation takes (sent as `param.productId`...).
 * They are signed and logged for accounting; they never change an answer.
 */
export class BusinessParamsDto {
  @OptionalText(20)
  'param.productId'?: string;

  @OptionalText(20)
  'param.busdepId'?: string;

  @OptionalText(20)
  'param.merId'?: string;
}
