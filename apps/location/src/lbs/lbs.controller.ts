import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { LbsOperation, LbsSignatureGuard } from '@geoaccount/signing';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { AddressQueryDto } from './dto/address-query.dto';
import { BaseStationQueryDto } from './dto/base-station-query.dto';
import { LbsQueryDto } from './dto/lbs-query.dto';
import { type LbsAnswer, LbsService } from './lbs.service';

/** The three location operations (GET, `param.`-prefixed parameters, signed per CONTRACT §3). */
@ApiTags('location')
@ApiQuery({ name: 'userToken', required: true, description: 'App token (app- followed by hex)', schema: { maxLength: 40 } })
@ApiQuery({ name: 'signature', required: true, description: 'HMAC-SHA256 hex of the operation plaintext (docs/location-api.md)', schema: { maxLength: 64 } })
@ApiOkResponse({ description: 'code "000"; lbsStat "1" computed, "2" from the cache. Failures: 400/401/404/503 with code "099"/"100", lbsStat "0".' })
@Controller('lbsapi/api')
@UseGuards(LbsSignatureGuard)
export class LbsController {
  constructor(private readonly lbs: LbsService) {}

  @Get('lbsQuery')
  @ApiOperation({ summary: 'Coordinates to address' })
  @LbsOperation('lbsQuery', ['longitude', 'latitude'])
  lbsQuery(@Query() q: LbsQueryDto): Promise<LbsAnswer> {
    return this.lbs.lbsQuery(q['param.longitude'], q['param.latitude']);
  }

  @Get('addressQuery')
  @ApiOperation({ summary: 'Address to coordinates' })
  @LbsOperation('addressQuery', ['city', 'address'])
  addressQuery(@Query() q: AddressQueryDto): Promise<LbsAnswer> {
    return this.lbs.addressQuery(q['param.city'], q['param.address']);
  }

  @Get('baseStationQuery')
  @ApiOperation({ summary: 'Base station to coordinates and address' })
  @LbsOperation('baseStationQuery', ['mcc', 'mnc', 'lac', 'cellid'])
  baseStationQuery(@Query() q: BaseStationQueryDto): Promise<LbsAnswer> {
    return this.lbs.baseStationQuery(q['param.mcc'], q['param.mnc'], q['param.lac'], q['param.cellid']);
  }
}
