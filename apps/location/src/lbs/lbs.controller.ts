import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { LbsOperation, LbsSignatureGuard } from '@geoaccount/signing';
import { AddressQueryDto } from './dto/address-query.dto';
import { BaseStationQueryDto } from './dto/base-station-query.dto';
import { LbsQueryDto } from './dto/lbs-query.dto';
import { type LbsAnswer, LbsService } from './lbs.service';

/** The three location operations (GET, `param.`-prefixed parameters, signed per CONTRACT §3). */
@Controller('lbsapi/api')
@UseGuards(LbsSignatureGuard)
export class LbsController {
  constructor(private readonly lbs: LbsService) {}

  @Get('lbsQuery')
  @LbsOperation('lbsQuery', ['longitude', 'latitude'])
  lbsQuery(@Query() q: LbsQueryDto): Promise<LbsAnswer> {
    return this.lbs.lbsQuery(q['param.longitude'], q['param.latitude']);
  }

  @Get('addressQuery')
  @LbsOperation('addressQuery', ['city', 'address'])
  addressQuery(@Query() q: AddressQueryDto): Promise<LbsAnswer> {
    return this.lbs.addressQuery(q['param.city'], q['param.address']);
  }

  @Get('baseStationQuery')
  @LbsOperation('baseStationQuery', ['mcc', 'mnc', 'lac', 'cellid'])
  baseStationQuery(@Query() q: BaseStationQueryDto): Promise<LbsAnswer> {
    return this.lbs.baseStationQuery(q['param.mcc'], q['param.mnc'], q['param.lac'], q['param.cellid']);
  }
}
