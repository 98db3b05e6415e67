import { ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalText } from './lbs-params';

/**
 * The optional business parameters every operation takes (sent as `param.productId`...).
 * They are signed and logged for accounting; they never change an answer.
 */
export class BusinessParamsDto {
  @ApiPropertyOptional({ description: 'Product number (signed, logged; not part of the answer)', maxLength: 20 })
  @OptionalText(20)
  'param.productId'?: string;

  @ApiPropertyOptional({ description: 'Business department number', maxLength: 20 })
  @OptionalText(20)
  'param.busdepId'?: string;

  @ApiPropertyOptional({ description: 'Merchant number', maxLength: 20 })
  @OptionalText(20)
  'param.merId'?: string;
}
